import { DatabaseError, Pool, type Client, type PoolClient } from "pg";
import { AppError } from "@/lib/errors";
import { TrajectoryPurpose } from "@/lib/generated/prisma/enums";

/**
 * The trajectory write path: rollout batches are written here, thousands of rows a round, so it is
 * raw SQL rather than Prisma (`createMany` reaches ~0.1× of COPY here because the client side is
 * CPU-bound). `npm run bench:ingest` measures it against COPY and against the other idempotent
 * paths we tried (unnest arrays, jsonb_to_recordset, COPY into a temp table); a multi-row
 * `INSERT … VALUES` prepared once per connection was the fastest of them.
 */

export type TrajectoryInsert = {
  generationId: number;
  taskId: number;
  purpose: TrajectoryPurpose;
  /** Index within the task's GRPO group for this generation and purpose. */
  sampleIndex: number;
  /** [{ tool, arguments, observation, probability, entropy }], stored as jsonb. */
  steps: unknown[];
  reward: number;
  success: boolean;
  stepCount: number;
  meanEntropy: number;
  advantage: number | null;
  sideEffect: boolean;
  policyVersion: number;
  /** The agent's final answer, when the task asked for one. */
  answer?: string | null;
  /** "finish" (the agent answered), "max_steps" (it ran out of steps) or "agent_error". */
  endReason?: string | null;
  /** The checker's reason for failing. */
  failure?: string | null;
  error: string | null;
  /** Tokens an external agent's endpoint reported; absent for the builtin agent. */
  promptTokens?: number | null;
  completionTokens?: number | null;
};

export type InsertTrajectoriesOptions = {
  /**
   * A pool, or a client — possibly inside the caller's transaction (BEGIN already sent), in which
   * case the rows commit or roll back with it.
   */
  db: Pool | PoolClient | Client;
  rows: readonly TrajectoryInsert[];
};

const COLUMNS = [
  "generationId",
  "taskId",
  "purpose",
  "sampleIndex",
  "steps",
  "reward",
  "success",
  "stepCount",
  "meanEntropy",
  "advantage",
  "sideEffect",
  "policyVersion",
  "answer",
  "endReason",
  "failure",
  "error",
  "promptTokens",
  "completionTokens",
] as const;

/**
 * Rows per statement: 9,000 parameters, far under Postgres' 65,535 limit. Throughput was flat to
 * slightly better from 250 to 500 rows and fell off beyond 1,000.
 */
export const CHUNK_ROWS = 500;

const PURPOSES = new Set<string>(Object.values(TrajectoryPurpose));

/**
 * Inserts the rows that are not stored yet and returns how many that was. Idempotent: a row whose
 * (generationId, taskId, purpose, sampleIndex) already exists — a retried rollout batch, or a
 * duplicate within the batch — is skipped without error (ON CONFLICT DO NOTHING).
 *
 * Steps JSON that jsonb cannot hold (U+0000, unpaired surrogates) is stored with U+FFFD in their
 * place: a tool that printed a NUL byte is worth a visible replacement mark, not a lost batch.
 * Malformed rows (non-finite numbers, unknown purpose, steps not an array) are refused up front
 * with an INVALID_INPUT error naming the row; nothing is written then.
 */
export async function insertTrajectories(
  options: InsertTrajectoriesOptions,
): Promise<{ inserted: number }> {
  const { db, rows } = options;
  if (rows.length === 0) return { inserted: 0 };

  const params = toParameters(rows);
  const chunkCount = Math.ceil(rows.length / CHUNK_ROWS);
  try {
    if (chunkCount === 1) return { inserted: await insertChunk(db, params, 0, rows.length) };
    if (db instanceof Pool) {
      // Several statements: run them on one connection in one transaction so a pool caller gets
      // all or nothing, as with a single statement.
      const client = await db.connect();
      let isBroken = false;
      try {
        await client.query("BEGIN");
        const inserted = await insertChunks(client, params, rows.length);
        await client.query("COMMIT");
        return { inserted };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          isBroken = true;
        });
        throw error;
      } finally {
        // A connection that cannot even roll back is discarded rather than handed to the next user.
        client.release(isBroken);
      }
    }
    // A client is used as given: inside the caller's transaction if there is one; outside, a
    // failure may leave earlier chunks committed, which a retry of the same rows then skips.
    return { inserted: await insertChunks(db, params, rows.length) };
  } catch (error) {
    throw translateError(error);
  }
}

async function insertChunks(
  db: PoolClient | Client,
  params: unknown[],
  rowCount: number,
): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < rowCount; start += CHUNK_ROWS) {
    inserted += await insertChunk(db, params, start, Math.min(start + CHUNK_ROWS, rowCount));
  }
  return inserted;
}

async function insertChunk(
  db: InsertTrajectoriesOptions["db"],
  params: unknown[],
  startRow: number,
  endRow: number,
): Promise<number> {
  const count = endRow - startRow;
  const values = params.slice(startRow * COLUMNS.length, endRow * COLUMNS.length);
  // Full chunks reuse one named statement per connection (~0.9 MB of server memory): parsing and
  // planning 9,000 parameters anew costs ~5% of the insert. Remainders are not worth a name each.
  const result = await db.query({
    ...(count === CHUNK_ROWS ? { name: `insert_trajectories_${CHUNK_ROWS}` } : {}),
    text: insertSql(count),
    values,
  });
  return result.rowCount ?? 0;
}

let fullChunkSql: string | undefined;

function insertSql(rowCount: number): string {
  if (rowCount === CHUNK_ROWS && fullChunkSql) return fullChunkSql;
  const tuples: string[] = [];
  for (let row = 0; row < rowCount; row += 1) {
    const base = row * COLUMNS.length;
    tuples.push(`(${COLUMNS.map((_, column) => `$${base + column + 1}`).join(",")})`);
  }
  const sql =
    `INSERT INTO "Trajectory" (${COLUMNS.map((column) => `"${column}"`).join(", ")}) ` +
    `VALUES ${tuples.join(",")} ` +
    `ON CONFLICT ("generationId", "taskId", purpose, "sampleIndex") DO NOTHING`;
  if (rowCount === CHUNK_ROWS) fullChunkSql = sql;
  return sql;
}

/**
 * Validated, flattened parameters in key order. The order matters under concurrency: two workers
 * writing overlapping batches (a job retried while its first worker still runs) take the unique
 * index's locks in the same order, so one waits for the other instead of deadlocking.
 */
function toParameters(rows: readonly TrajectoryInsert[]): unknown[] {
  const ordered = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => compareKeys(a.row, b.row));
  const params: unknown[] = new Array(rows.length * COLUMNS.length);
  let at = 0;
  for (const { row, index } of ordered) {
    assertValidRow(row, index);
    params[at++] = row.generationId;
    params[at++] = row.taskId;
    params[at++] = row.purpose;
    params[at++] = row.sampleIndex;
    params[at++] = stepsJson(row.steps, index);
    params[at++] = row.reward;
    params[at++] = row.success;
    params[at++] = row.stepCount;
    params[at++] = row.meanEntropy;
    params[at++] = row.advantage;
    params[at++] = row.sideEffect;
    params[at++] = row.policyVersion;
    params[at++] = storableText(row.answer);
    params[at++] = storableText(row.endReason);
    params[at++] = storableText(row.failure);
    params[at++] = storableText(row.error);
    params[at++] = row.promptTokens ?? null;
    params[at++] = row.completionTokens ?? null;
  }
  return params;
}

/** Postgres text cannot hold U+0000; a visible replacement mark beats a lost batch. */
function storableText(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : value.replaceAll("\u0000", "\uFFFD");
}

function compareKeys(a: TrajectoryInsert, b: TrajectoryInsert): number {
  return (
    a.generationId - b.generationId ||
    a.taskId - b.taskId ||
    (a.purpose < b.purpose ? -1 : a.purpose > b.purpose ? 1 : 0) ||
    a.sampleIndex - b.sampleIndex
  );
}

const INT4_MAX = 2_147_483_647;

function assertValidRow(row: TrajectoryInsert, index: number): void {
  const problem = findProblem(row);
  if (problem) {
    throw new AppError(
      "INVALID_INPUT",
      `Trajectory row ${index} (task ${String(row.taskId)}, sample ${String(row.sampleIndex)}): ${problem}.`,
    );
  }
}

function findProblem(row: TrajectoryInsert): string | null {
  for (const key of [
    "generationId",
    "taskId",
    "sampleIndex",
    "stepCount",
    "policyVersion",
  ] as const) {
    const value = row[key];
    if (!Number.isInteger(value) || value < 0 || value > INT4_MAX) {
      return `${key} must be a non-negative 32-bit integer, got ${String(value)}`;
    }
  }
  for (const key of ["promptTokens", "completionTokens"] as const) {
    const value = row[key];
    if (value !== null && value !== undefined) {
      if (!Number.isInteger(value) || value < 0 || value > INT4_MAX) {
        return `${key} must be a non-negative 32-bit integer or null, got ${String(value)}`;
      }
    }
  }
  for (const key of ["reward", "meanEntropy"] as const) {
    if (!Number.isFinite(row[key]))
      return `${key} must be a finite number, got ${String(row[key])}`;
  }
  if (row.advantage !== null && !Number.isFinite(row.advantage)) {
    return `advantage must be a finite number or null, got ${String(row.advantage)}`;
  }
  if (!PURPOSES.has(row.purpose)) return `unknown purpose ${JSON.stringify(row.purpose)}`;
  if (typeof row.success !== "boolean") return "success must be a boolean";
  if (typeof row.sideEffect !== "boolean") return "sideEffect must be a boolean";
  for (const key of ["answer", "endReason", "failure", "error"] as const) {
    const value = row[key];
    if (value !== null && value !== undefined && typeof value !== "string") {
      return `${key} must be a string or null`;
    }
  }
  if (!Array.isArray(row.steps)) return "steps must be an array";
  return null;
}

function stepsJson(steps: unknown[], index: number): string {
  let json: string;
  try {
    json = JSON.stringify(steps);
  } catch (error) {
    throw new AppError(
      "INVALID_INPUT",
      `Trajectory row ${index}: steps cannot be serialized as JSON (${(error as Error).message}).`,
      { cause: error },
    );
  }
  // JSON.stringify writes U+0000 and unpaired surrogates as \u escapes, which jsonb refuses.
  // Checking for "\u" first keeps the common case to one native scan.
  return json.includes("\\u") ? json.replace(UNSTORABLE_ESCAPE, replaceEscape) : json;
}

/** `\\` pairs are matched too so that an escaped backslash followed by "u0000" is left alone. */
const UNSTORABLE_ESCAPE = /\\(?:\\|u0000|ud[89a-f][0-9a-f]{2})/gi;

function replaceEscape(match: string): string {
  return match === "\\\\" ? match : "\\ufffd";
}

/** Constraint failures become AppErrors that say which rule the batch broke. */
function translateError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof DatabaseError)) return error;
  if (error.code === "23503") {
    return new AppError(
      "NOT_FOUND",
      `Trajectory batch refers to a generation or task that does not exist (${error.detail ?? error.message}).`,
      { cause: error },
    );
  }
  if (error.code?.startsWith("22")) {
    return new AppError("INVALID_INPUT", `Trajectory batch refused: ${error.message}.`, {
      cause: error,
    });
  }
  return error;
}

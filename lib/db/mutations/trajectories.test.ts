import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHUNK_ROWS,
  insertTrajectories,
  type TrajectoryInsert,
} from "@/lib/db/mutations/trajectories";
import { AppError } from "@/lib/errors";
import { testDatabaseUrl } from "@/tests/support/db";

let pool: Pool;
beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
});
afterAll(async () => {
  await pool.end();
});

type Parents = { generationId: number; taskIds: number[] };

/** A run, one generation and `taskCount` tasks of its own, so tests never see each other's rows. */
async function createParents(taskCount: number): Promise<Parents> {
  const slug = `traj-${randomUUID()}`;
  const {
    rows: [run],
  } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
    [slug],
  );
  const {
    rows: [generation],
  } = await pool.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index) VALUES ($1, 0) RETURNING id`,
    [run!.id],
  );
  const { rows: tasks } = await pool.query<{ id: number }>(
    `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
       instruction, spec, fingerprint)
     SELECT $1, 'task-' || g, $2, 'files', 1, 0.5, 'SEED', 'do it', '{}', 'fp-' || g
     FROM generate_series(1, $3::int) g
     ORDER BY g
     RETURNING id`,
    [run!.id, generation!.id, taskCount],
  );
  return { generationId: generation!.id, taskIds: tasks.map((task) => task.id) };
}

/** `count` rows: `samples` per task, in task order. */
function makeRows(parents: Parents, count: number, samples = 8): TrajectoryInsert[] {
  return Array.from({ length: count }, (_, i) => {
    const sampleIndex = i % samples;
    return {
      generationId: parents.generationId,
      taskId: parents.taskIds[Math.floor(i / samples)]!,
      purpose: "TRAIN",
      sampleIndex,
      steps: [
        {
          tool: "read_file",
          arguments: { path: `/work/${i}.txt` },
          observation: { status: "ok", text: `row ${i}` },
          probability: 0.25,
          entropy: 1.5,
        },
      ],
      reward: (i % 7) / 7,
      success: i % 2 === 0,
      stepCount: 1,
      meanEntropy: 1.5 + i / 1000,
      advantage: i % 3 === 0 ? null : (i % 5) - 2.5,
      sideEffect: i % 11 === 0,
      policyVersion: 2,
      error: i % 13 === 0 ? `timeout at row ${i}` : null,
    };
  });
}

type StoredRow = Omit<TrajectoryInsert, "purpose"> & { purpose: string };

async function readRows(generationId: number): Promise<StoredRow[]> {
  const { rows } = await pool.query<StoredRow>(
    `SELECT "generationId", "taskId", purpose, "sampleIndex", steps, reward, success, "stepCount",
            "meanEntropy", advantage, "sideEffect", "policyVersion", error
       FROM "Trajectory" WHERE "generationId" = $1
      ORDER BY "taskId", purpose, "sampleIndex"`,
    [generationId],
  );
  return rows;
}

async function countRows(generationId: number): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "Trajectory" WHERE "generationId" = $1`,
    [generationId],
  );
  return rows[0]!.count;
}

function byKey(a: TrajectoryInsert, b: TrajectoryInsert): number {
  return a.taskId - b.taskId || a.purpose.localeCompare(b.purpose) || a.sampleIndex - b.sampleIndex;
}

describe("insertTrajectories", () => {
  it("stores every row and reads back equal, JSON included", async () => {
    const count = CHUNK_ROWS * 2 + 37; // two full (prepared) chunks and a remainder
    const parents = await createParents(Math.ceil(count / 8));
    const rows = makeRows(parents, count);
    rows[0]!.steps = [
      {
        tool: "write_file",
        arguments: {
          path: 'C:\\Users\\ölaf\\"quoted".txt',
          content: 'She said "hi" \\ back\\slash \\\\ double, tab\there, newline\nthere',
          nested: { deeper: [1, 2.5, -3e-7, true, false, null, { empty: {}, list: [] }] },
        },
        observation: {
          text: "日本語 · emoji 🙂👍🏽 · RTL שלום · combining é · escape \u001b[31mred\u001b[0m",
          literalEscapeText: "the six characters \\u0000 stay as they are",
          'key with "quotes" and \\ backslash': "value",
        },
        probability: 0.123456789012345,
        entropy: 0,
      },
      "a bare string step",
      42,
    ];
    rows[1]!.error = 'multi-line\nerror with "quotes", tabs\t and \\ backslashes — ünïcødé';

    // Shuffled input: storage must not depend on the caller's order.
    const shuffled = [...rows].reverse();
    expect(await insertTrajectories({ db: pool, rows: shuffled })).toEqual({ inserted: count });

    const stored = await readRows(parents.generationId);
    expect(stored).toEqual([...rows].sort(byKey));
  });

  it("inserts nothing and raises nothing when the same batch is written again", async () => {
    const parents = await createParents(100);
    const rows = makeRows(parents, 700);
    await insertTrajectories({ db: pool, rows });
    const before = await readRows(parents.generationId);

    expect(await insertTrajectories({ db: pool, rows })).toEqual({ inserted: 0 });
    expect(await readRows(parents.generationId)).toEqual(before);
  });

  it("inserts only the new rows of a partially overlapping batch, keeping the stored ones", async () => {
    const parents = await createParents(100);
    const rows = makeRows(parents, 800);
    await insertTrajectories({ db: pool, rows: rows.slice(0, 500) });

    // The retry recomputed the overlap differently; the first write wins.
    const retry = rows.slice(300).map((row) => ({ ...row, reward: 99 }));
    expect(await insertTrajectories({ db: pool, rows: retry })).toEqual({ inserted: 300 });

    const stored = await readRows(parents.generationId);
    expect(stored).toHaveLength(800);
    expect(stored.filter((row) => row.reward === 99)).toHaveLength(300);
    expect(stored.slice(0, 500)).toEqual(rows.slice(0, 500).sort(byKey));
  });

  it("skips duplicates within one batch", async () => {
    const parents = await createParents(2);
    const rows = makeRows(parents, 10);
    const result = await insertTrajectories({ db: pool, rows: [...rows, ...rows.slice(0, 4)] });
    expect(result).toEqual({ inserted: 10 });
    expect(await countRows(parents.generationId)).toBe(10);
  });

  it("writes inside the caller's transaction, and a rollback leaves nothing", async () => {
    const parents = await createParents(200);
    const rows = makeRows(parents, CHUNK_ROWS + 100);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      expect(await insertTrajectories({ db: client, rows })).toEqual({ inserted: rows.length });
      const inside = await client.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM "Trajectory" WHERE "generationId" = $1`,
        [parents.generationId],
      );
      expect(inside.rows[0]!.count).toBe(rows.length);
      expect(await countRows(parents.generationId)).toBe(0); // not visible outside before commit
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await countRows(parents.generationId)).toBe(0);
  });

  it("does nothing, not even a query, for an empty batch", async () => {
    const db = {
      query: () => {
        throw new Error("no query expected");
      },
    } as unknown as Pool;
    expect(await insertTrajectories({ db, rows: [] })).toEqual({ inserted: 0 });
  });

  it("stores U+FFFD where jsonb cannot hold a character, instead of failing the batch", async () => {
    const parents = await createParents(1);
    const rows = makeRows(parents, 3);
    rows[1]!.steps = [
      {
        observation: "binary\u0000output",
        ["key\u0000with nul"]: "lone \ud800 high and \udc00 low surrogates",
        paired: "🙂 stays",
        escapedBackslash: "\\\u0000 and \\u0000 as text",
      },
    ];
    rows[1]!.error = "tool wrote \u0000 to stderr";

    expect(await insertTrajectories({ db: pool, rows })).toEqual({ inserted: 3 });

    const stored = await readRows(parents.generationId);
    expect(stored[1]!.steps).toEqual([
      {
        observation: "binary\uFFFDoutput",
        "key\uFFFDwith nul": "lone \uFFFD high and \uFFFD low surrogates",
        paired: "🙂 stays",
        escapedBackslash: "\\\uFFFD and \\u0000 as text",
      },
    ]);
    expect(stored[1]!.error).toBe("tool wrote \uFFFD to stderr");
    expect(stored[0]!.steps).toEqual(rows[0]!.steps);
    expect(stored[2]!.steps).toEqual(rows[2]!.steps);
  });

  it("refuses a malformed row by its index and writes none of the batch", async () => {
    const parents = await createParents(100);
    const rows = makeRows(parents, 700);
    rows[650]!.reward = Number.NaN;

    const error = await insertTrajectories({ db: pool, rows }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("row 650"),
    });
    expect(await countRows(parents.generationId)).toBe(0);

    const notArray = makeRows(parents, 2);
    notArray[1]!.steps = { not: "an array" } as unknown as unknown[];
    await expect(insertTrajectories({ db: pool, rows: notArray })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("row 1"),
    });
  });

  it("reports a batch for a task that does not exist as NOT_FOUND, writing none of it", async () => {
    const parents = await createParents(2);
    const rows = makeRows(parents, 16);
    rows[9]!.taskId = 2_000_000_000;
    await expect(insertTrajectories({ db: pool, rows })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await countRows(parents.generationId)).toBe(0);
  });

  it("lets two transactions write overlapping batches in opposite orders without deadlocking", async () => {
    const parents = await createParents(200);
    const rows = makeRows(parents, CHUNK_ROWS * 2 + 200);
    const write = async (batch: TrajectoryInsert[]) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await insertTrajectories({ db: client, rows: batch });
        await client.query("COMMIT");
        return result.inserted;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    };

    const inserted = await Promise.all([write(rows), write([...rows].reverse())]);
    expect(inserted[0]! + inserted[1]!).toBe(rows.length);
    expect(await countRows(parents.generationId)).toBe(rows.length);
  });
});

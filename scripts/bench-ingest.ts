/**
 * npm run bench:ingest [-- --rows 40000 --batch 500 --reps 3 --all]
 *
 * Writes the same realistic trajectory rows through the app's path (insertTrajectories, batch by
 * batch) and through one raw COPY stream into the same table, on a throwaway embedded Postgres of
 * its own, and prints rows/s for each and their ratio against the target (issue 4: ≥ 0.6× COPY).
 * `--all` also measures the idempotent paths we did not choose, to show why.
 * Exits 1 when the ratio misses the target.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";
import { insertTrajectories, type TrajectoryInsert } from "@/lib/db/mutations/trajectories";

const TARGET_RATIO = 0.6;
const COPY_NAME = "COPY FROM STDIN (one stream)";
const APP_NAME = "app: insertTrajectories";
const SAMPLES_PER_TASK = 8;

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "40000" },
    batch: { type: "string", default: "500" },
    reps: { type: "string", default: "3" },
    all: { type: "boolean", default: false },
  },
});
const ROWS = Number(args.rows);
const BATCH = Number(args.batch);
const REPS = Number(args.reps);

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
  "error",
] as const;
const COLUMN_LIST = COLUMNS.map((column) => `"${column}"`).join(", ");

type WritePath = (db: Client, rows: TrajectoryInsert[]) => Promise<number>;

/** Every path writes the rows in batches of BATCH (one call each), as a rollout worker would. */
function inBatches(write: WritePath): WritePath {
  return async (db, rows) => {
    let inserted = 0;
    for (let start = 0; start < rows.length; start += BATCH) {
      inserted += await write(db, rows.slice(start, start + BATCH));
    }
    return inserted;
  };
}

const appPath: WritePath = inBatches(
  async (db, rows) => (await insertTrajectories({ db, rows })).inserted,
);

/** The reference: one COPY stream for all rows, fed batch by batch with backpressure. */
const copyPath: WritePath = async (db, rows) => {
  function* chunks() {
    for (let start = 0; start < rows.length; start += BATCH) {
      yield copyText(rows.slice(start, start + BATCH));
    }
  }
  const stream = db.query(copyFrom(`COPY "Trajectory" (${COLUMN_LIST}) FROM STDIN`));
  await pipeline(Readable.from(chunks()), stream);
  return stream.rowCount;
};

/** COPY text format: tab-separated, \N for null, backslash escapes. */
function copyText(rows: TrajectoryInsert[]): string {
  let text = "";
  for (const row of rows) {
    text +=
      `${row.generationId}\t${row.taskId}\t${row.purpose}\t${row.sampleIndex}\t` +
      `${escapeCopy(JSON.stringify(row.steps))}\t${row.reward}\t${row.success ? "t" : "f"}\t` +
      `${row.stepCount}\t${row.meanEntropy}\t${row.advantage ?? "\\N"}\t` +
      `${row.sideEffect ? "t" : "f"}\t${row.policyVersion}\t` +
      `${row.error === null ? "\\N" : escapeCopy(row.error)}\n`;
  }
  return text;
}

function escapeCopy(value: string): string {
  return value
    .replaceAll("\\", "\\\\")
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r")
    .replaceAll("\t", "\\t");
}

const ON_CONFLICT = `ON CONFLICT ("generationId", "taskId", purpose, "sampleIndex") DO NOTHING`;

function rowParams(row: TrajectoryInsert): unknown[] {
  return [
    row.generationId,
    row.taskId,
    row.purpose,
    row.sampleIndex,
    JSON.stringify(row.steps),
    row.reward,
    row.success,
    row.stepCount,
    row.meanEntropy,
    row.advantage,
    row.sideEffect,
    row.policyVersion,
    row.error,
  ];
}

/** The candidates not chosen (`--all`), each idempotent like the app's path. */
const candidates: Record<string, WritePath> = {
  "INSERT VALUES, unprepared": inBatches(async (db, rows) => {
    const tuples = rows.map((_, row) => {
      const base = row * COLUMNS.length;
      return `(${COLUMNS.map((_, column) => `$${base + column + 1}`).join(",")})`;
    });
    const result = await db.query(
      `INSERT INTO "Trajectory" (${COLUMN_LIST}) VALUES ${tuples.join(",")} ${ON_CONFLICT}`,
      rows.flatMap(rowParams),
    );
    return result.rowCount ?? 0;
  }),
  "INSERT SELECT unnest(arrays)": inBatches(async (db, rows) => {
    const params = COLUMNS.map((_, column) => rows.map((row) => rowParams(row)[column]));
    const result = await db.query(
      `INSERT INTO "Trajectory" (${COLUMN_LIST})
       SELECT * FROM unnest($1::int[], $2::int[], $3::"TrajectoryPurpose"[], $4::int[],
         $5::jsonb[], $6::float8[], $7::bool[], $8::int[], $9::float8[], $10::float8[], $11::bool[],
         $12::int[], $13::text[])
       ${ON_CONFLICT}`,
      params,
    );
    return result.rowCount ?? 0;
  }),
  "INSERT SELECT jsonb_to_recordset": inBatches(async (db, rows) => {
    const result = await db.query(
      `INSERT INTO "Trajectory" (${COLUMN_LIST})
       SELECT ${COLUMN_LIST} FROM jsonb_to_recordset($1::jsonb) AS r("generationId" int,
         "taskId" int, purpose "TrajectoryPurpose", "sampleIndex" int, steps jsonb, reward float8,
         success bool, "stepCount" int, "meanEntropy" float8, advantage float8, "sideEffect" bool,
         "policyVersion" int, error text)
       ${ON_CONFLICT}`,
      [JSON.stringify(rows)],
    );
    return result.rowCount ?? 0;
  }),
  "COPY to temp table + INSERT SELECT": inBatches(async (db, rows) => {
    // The temp table outlives the call on a pooled connection, so it is emptied before each use.
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS trajectory_ingest AS
       SELECT ${COLUMN_LIST} FROM "Trajectory" WITH NO DATA`,
    );
    await db.query("TRUNCATE trajectory_ingest");
    await pipeline(
      Readable.from([copyText(rows)]),
      db.query(copyFrom(`COPY trajectory_ingest (${COLUMN_LIST}) FROM STDIN`)),
    );
    const result = await db.query(
      `INSERT INTO "Trajectory" (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM trajectory_ingest
       ${ON_CONFLICT}`,
    );
    return result.rowCount ?? 0;
  }),
  "COPY per batch (not idempotent)": inBatches(copyPath),
};

/** Deterministic rows shaped like the builtin engine's: ~6 steps with a few-hundred-byte observation. */
function makeRows(generationId: number, taskIds: number[]): TrajectoryInsert[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const tools = ["search_files", "read_file", "write_file", "list_dir", "run_tests", "http_get"];
  const words = [
    "alpha",
    "beta",
    "config.yaml",
    '"quoted"',
    "back\\slash",
    "ünïcødé",
    "日本",
    "🙂",
    "src/index.ts",
    "ERROR",
    "ok",
  ];
  const word = () => words[Math.floor(random() * words.length)]!;
  return Array.from({ length: ROWS }, (_, i) => {
    const stepCount = 4 + Math.floor(random() * 5);
    let entropySum = 0;
    const steps = Array.from({ length: stepCount }, () => {
      const entropy = random() * 2;
      entropySum += entropy;
      return {
        tool: tools[Math.floor(random() * tools.length)],
        arguments: { path: `/work/${word()}/${Math.floor(random() * 1000)}.json`, limit: 20 },
        observation: {
          status: random() < 0.9 ? "ok" : "error",
          items: Array.from({ length: 4 }, () => ({
            name: word(),
            size: Math.floor(random() * 1e6),
          })),
          text: Array.from({ length: 16 }, word).join(" "),
        },
        probability: random(),
        entropy,
      };
    });
    const success = random() < 0.5;
    return {
      generationId,
      taskId: taskIds[Math.floor(i / SAMPLES_PER_TASK)]!,
      purpose: "TRAIN",
      sampleIndex: i % SAMPLES_PER_TASK,
      steps,
      reward: success ? 1 : random() * 0.5,
      success,
      stepCount,
      meanEntropy: entropySum / stepCount,
      advantage: random() * 2 - 1,
      sideEffect: random() < 0.05,
      policyVersion: 3,
      error: random() < 0.02 ? "timeout after 30 s\tat step 4" : null,
    };
  });
}

async function createParents(db: Client): Promise<{ generationId: number; taskIds: number[] }> {
  const {
    rows: [run],
  } = await db.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ('bench', 'bench', 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
  );
  const {
    rows: [generation],
  } = await db.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index) VALUES ($1, 0) RETURNING id`,
    [run!.id],
  );
  const { rows: tasks } = await db.query<{ id: number }>(
    `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
       instruction, spec, fingerprint)
     SELECT $1, 'task-' || g, $2, 'files', 1, 0.5, 'SEED', 'do it', '{}', 'fp-' || g
     FROM generate_series(1, $3::int) g ORDER BY g RETURNING id`,
    [run!.id, generation!.id, Math.ceil(ROWS / SAMPLES_PER_TASK)],
  );
  return { generationId: generation!.id, taskIds: tasks.map((task) => task.id) };
}

type Measurement = { rowsPerSecond: number; clientCpuMs: number; serverCpuMs: number | null };

async function measure(
  db: Client,
  backendPid: number,
  write: WritePath,
  rows: TrajectoryInsert[],
): Promise<Measurement> {
  await db.query(`TRUNCATE "Trajectory"`);
  await db.query("CHECKPOINT");
  const serverBefore = backendCpuMs(backendPid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const inserted = await write(db, rows);
  const elapsedMs = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = backendCpuMs(backendPid);
  const {
    rows: [stored],
  } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Trajectory"`);
  if (inserted !== rows.length || stored!.count !== rows.length) {
    throw new Error(`expected ${rows.length} rows, inserted ${inserted}, stored ${stored!.count}`);
  }
  return {
    rowsPerSecond: (rows.length / elapsedMs) * 1000,
    clientCpuMs: (client.user + client.system) / 1000,
    serverCpuMs: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
  };
}

/** CPU time of the server process serving our connection (Linux; the server is local). */
function backendCpuMs(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
  } catch {
    return null;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function formatLine(name: string, runs: Measurement[], ratios: number[]): string {
  const perThousand = (ms: number) => ((ms / ROWS) * 1000).toFixed(0).padStart(4);
  const serverCpu = runs.every((run) => run.serverCpuMs !== null)
    ? perThousand(median(runs.map((run) => run.serverCpuMs!)))
    : "   ?";
  const clientCpu = perThousand(median(runs.map((run) => run.clientCpuMs)));
  const rate = Math.round(median(runs.map((run) => run.rowsPerSecond)));
  return (
    `${name.padEnd(36)} ${rate.toString().padStart(7)} rows/s  ${median(ratios).toFixed(2)}× COPY` +
    `   CPU ms per 1k rows: client ${clientCpu}, server ${serverCpu}`
  );
}

async function main(): Promise<boolean> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-bench-ingest-"));
  // Enterable by the postgres account the server runs as when we are root.
  fs.chmodSync(root, 0o755);
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  let db: Client | null = null;
  const cleanUp = async () => {
    await db?.end().catch(() => {});
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
  const onSignal = () => {
    void cleanUp().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    server = await startEmbeddedPostgres({ dataDir: path.join(root, "data"), isEphemeral: true });
    await ensureDatabase(server.urlFor("postgres"), "bench");
    const url = server.urlFor("bench");
    await migrate({ connectionString: url });
    db = new Client({ connectionString: url });
    await db.connect();
    const backend = await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const backendPid = backend.rows[0]!.pid;

    const parents = await createParents(db);
    const rows = makeRows(parents.generationId, parents.taskIds);
    const jsonBytes = rows.reduce((sum, row) => sum + JSON.stringify(row.steps).length, 0);
    console.log(
      `${ROWS} trajectories (steps JSON ~${Math.round(jsonBytes / ROWS)} B each), ` +
        `batches of ${BATCH}, ${REPS} repetitions, embedded Postgres with fsync off`,
    );

    const paths: [string, WritePath][] = [
      [COPY_NAME, copyPath],
      [APP_NAME, appPath],
      ...(args.all ? Object.entries(candidates) : []),
    ];
    const runs = new Map<string, Measurement[]>(paths.map(([name]) => [name, []]));
    const ratios = new Map<string, number[]>(paths.map(([name]) => [name, []]));
    for (let rep = 0; rep < REPS; rep += 1) {
      // Every path once per round, starting at a different one each round, and each compared with
      // the COPY of its own round: drift in machine load then favours no path.
      const measured = new Map<string, Measurement>();
      for (let step = 0; step < paths.length; step += 1) {
        const [name, write] = paths[(rep + step) % paths.length]!;
        measured.set(name, await measure(db, backendPid, write, rows));
      }
      const copyRate = measured.get(COPY_NAME)!.rowsPerSecond;
      for (const [name, run] of measured) {
        runs.get(name)!.push(run);
        ratios.get(name)!.push(run.rowsPerSecond / copyRate);
      }
    }

    // The table holds every row now (each pass writes all): a retried batch must add nothing.
    const retried = await insertTrajectories({ db, rows: rows.slice(0, BATCH) });
    if (retried.inserted !== 0) {
      throw new Error(`a retried batch inserted ${retried.inserted} rows`);
    }

    for (const [name] of paths) console.log(formatLine(name, runs.get(name)!, ratios.get(name)!));

    const ratio = median(ratios.get(APP_NAME)!);
    const isPass = ratio >= TARGET_RATIO;
    console.log(
      `${isPass ? "PASS" : "FAIL"}: app/COPY = ${ratio.toFixed(2)} (median of ${REPS} rounds; ` +
        `target ≥ ${TARGET_RATIO}); retried batch inserted 0 rows`,
    );
    return isPass;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await cleanUp();
  }
}

main().then(
  (isPass) => {
    process.exitCode = isPass ? 0 : 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);

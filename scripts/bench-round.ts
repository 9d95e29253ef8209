/**
 * `npm run bench:round`: wall time of a default round through the real job layer — create run →
 * generation 0 done, then "Launch round" → round done — on a throwaway embedded Postgres with
 * COEVOLVE_WORKERS in-process workers (default 1). Prints seconds per phase.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";
import { createRun, launchRound } from "@/lib/db/mutations/rounds";
import { createBoss, ensureQueues } from "@/lib/jobs/queue";
import { startWorker } from "@/lib/jobs/worker";
import { parseRunConfig } from "@/lib/validations/run-config";

const mode = (process.argv[2] ?? "coevolve") as "coevolve" | "static" | "uniform";
const workerCount = Number(process.env.COEVOLVE_WORKERS ?? 1);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-bench-round-"));
fs.chmodSync(root, 0o755);
const server = await startEmbeddedPostgres({ dataDir: path.join(root, "pg"), isEphemeral: true });
try {
  await ensureDatabase(server.urlFor("postgres"), "bench");
  const url = server.urlFor("bench");
  await migrate({ connectionString: url });
  const pool = new Pool({ connectionString: url });
  pool.on("error", () => {});
  const boss = createBoss(url, "client");
  await boss.start();
  await ensureQueues(boss);
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () => startWorker({ connectionString: url })),
  );
  const waitDone = async (runId: number, index: number) => {
    for (;;) {
      const { rows } = await pool.query<{ status: string; error: string | null }>(
        `SELECT status, error FROM "Generation" WHERE "runId" = $1 AND index = $2`,
        [runId, index],
      );
      if (rows[0]?.status === "DONE") return;
      if (rows[0]?.status === "FAILED") throw new Error(rows[0].error ?? "failed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const config = parseRunConfig({ mode });
  let started = Date.now();
  const run = await createRun({ pool, boss }, { name: "bench", config });
  await waitDone(run.id, 0);
  const setupSeconds = (Date.now() - started) / 1000;
  const roundSeconds: number[] = [];
  for (let round = 1; round <= 3; round += 1) {
    started = Date.now();
    await launchRound({ pool, boss }, { runId: run.id });
    await waitDone(run.id, round);
    roundSeconds.push((Date.now() - started) / 1000);
  }
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId" WHERE g."runId" = $1`,
    [run.id],
  );
  console.log(
    `mode ${mode}, ${workerCount} worker(s), ${config.tasksPerRound} tasks × G=${config.groupSize} per round`,
  );
  console.log(`create run → generation 0 done: ${setupSeconds.toFixed(2)} s`);
  console.log(`launch round → round done: ${roundSeconds.map((s) => s.toFixed(2)).join(" s, ")} s`);
  console.log(`trajectories stored: ${rows[0]!.count}`);
  await Promise.all(workers.map((worker) => worker.stop()));
  await boss.stop({ graceful: false });
  await pool.end();
} finally {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

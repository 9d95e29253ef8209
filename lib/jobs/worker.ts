import { Pool } from "pg";
import type { EngineDeps } from "@/lib/engine/engine";
import type { RunConfig } from "@/lib/validations/run-config";
import type { ExternalTrainerSetup } from "./external-trainer";
import { createBoss, ensureQueues, QUEUE, type RolloutJob, type StageJob } from "./queue";
import { runRolloutJob, runStageJob, type RoundContext } from "./rounds";

export type WorkerOptions = {
  connectionString: string;
  /** Engine parts per run config; tests substitute failing ones. */
  depsFor?: (config: RunConfig, runId: number) => EngineDeps | Promise<EngineDeps>;
  /** Data dir and public URL for external trainers; default from COEVOLVE_DATA_DIR/PUBLIC_URL. */
  externalTrainer?: ExternalTrainerSetup;
  /** Opens saved API keys; default from COEVOLVE_SECRET_KEY or the data dir's key file. */
  secretKey?: Buffer;
  log?: (line: string) => void;
};

export type RunningWorker = { stop: () => Promise<void> };

/**
 * A worker process's job loop: stage jobs and rollout batches, from the shared Postgres queue.
 * Any number may run against the same database, on any machine.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const log = options.log ?? (() => {});
  const boss = createBoss(options.connectionString, "worker");
  await boss.start();
  await ensureQueues(boss);
  const pool = new Pool({ connectionString: options.connectionString, max: 4 });
  // An idle connection dropped by the server (restart, failover) must not crash the worker; the
  // next query reconnects, and jobs in flight are retried by the queue.
  pool.on("error", (error) => log(`database connection lost: ${error.message}`));
  const ctx: RoundContext = {
    pool,
    boss,
    depsFor: options.depsFor,
    secretKey: options.secretKey,
    externalTrainer: options.externalTrainer,
  };
  const polling = { batchSize: 1, pollingIntervalSeconds: 0.5 };

  // pg-boss waits a polling interval after each job even when more are queued; a round is a
  // chain of jobs that each enqueue the next, so after every job we wake both loops to fetch at
  // once. Idle workers still poll every 0.5 s.
  const loopIds: string[] = [];
  const wakeLoops = () => loopIds.forEach((id) => boss.notifyWorker(id));
  loopIds.push(
    await boss.work<StageJob>(QUEUE.stage, polling, async ([job]) => {
      if (job) await runStageJob(ctx, job.data);
      wakeLoops();
    }),
    await boss.work<RolloutJob>(QUEUE.rollout, polling, async ([job]) => {
      if (job) await runRolloutJob(ctx, job.data);
      wakeLoops();
    }),
  );
  log("worker started");

  return {
    stop: async () => {
      await boss.stop({ graceful: true, timeout: 10_000 });
      await pool.end();
    },
  };
}

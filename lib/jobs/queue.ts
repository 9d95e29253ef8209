import PgBoss from "pg-boss";
import type { PoolClient } from "pg";
import type { RunConfig } from "@/lib/validations/run-config";
import { JOB_EXPIRY_SECONDS, stageExpirySeconds } from "./expiry";

/**
 * The Postgres job queue (pg-boss). Jobs carry ids only: the Generation row holds a round's state
 * and status, the queue only delivers "work on this now". Every handler is idempotent, so a job
 * delivered twice (a retry after a crash, a duplicate enqueue) changes nothing the second time.
 */

export const QUEUE = {
  /** Run one stage of a round (everything but the rollouts themselves). */
  stage: "round-stage",
  /** Roll out one batch of a generation's tasks; many run at once across workers. */
  rollout: "rollout-batch",
} as const;

export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

export type StageJob = { generationId: number; attempt: number };
export type RolloutJob = { generationId: number; attempt: number; batchIndex: number };

export { JOB_EXPIRY_SECONDS } from "./expiry";
/** How often some worker sweeps expired jobs back into the queue. */
export const MAINTENANCE_INTERVAL_SECONDS = 5;

const queueDefaults = {
  retryLimit: 20,
  retryDelay: 1,
  retryBackoff: false,
  expireInSeconds: JOB_EXPIRY_SECONDS,
} satisfies Omit<PgBoss.Queue, "name">;

export type BossRole = "worker" | "client";

export function createBoss(connectionString: string, role: BossRole): PgBoss {
  const boss = new PgBoss({
    connectionString,
    application_name: `coevolve-${role}`,
    max: role === "worker" ? 6 : 3,
    // Only workers sweep expired jobs; the web app just enqueues.
    supervise: role === "worker",
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
    schedule: false,
    migrate: true,
  });
  // pg-boss re-emits its pool's errors (a dropped connection, a server restart); an EventEmitter
  // error without a listener would crash the process, while the queue itself recovers.
  boss.on("error", (error) => console.error(`[queue ${role}] ${error.message}`));
  return boss;
}

/** Creates the queues if missing; safe to call from every process at start-up. */
export async function ensureQueues(boss: PgBoss): Promise<void> {
  for (const name of Object.values(QUEUE)) {
    const existing = await boss.getQueue(name);
    if (!existing) {
      try {
        await boss.createQueue(name, { name, ...queueDefaults });
      } catch (error) {
        // Another process created it between our look and our create: what we wanted.
        if (!(await boss.getQueue(name))) throw error;
      }
    }
  }
}

/** Lets pg-boss write its job row inside our open transaction: both commit or neither. */
export function inTransaction(client: PoolClient): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

/**
 * The stage job expiry the generation's run needs: an agent or environment given as an object
 * (rather than "builtin"/"toolworld") is remote (see expiry.ts).
 */
async function stageExpiryOf(client: PoolClient, generationId: number): Promise<number> {
  // The stored config's endpoint parts as JSON: the same rule the worker applies to parsed ones.
  const { rows } = await client.query<Pick<RunConfig, "agent" | "environment" | "synthesizer">>(
    `SELECT r.config -> 'agent' AS agent, r.config -> 'environment' AS environment,
            r.config -> 'synthesizer' AS synthesizer
       FROM "Generation" g JOIN "Run" r ON r.id = g."runId" WHERE g.id = $1`,
    [generationId],
  );
  return (rows[0] && stageExpirySeconds(rows[0])) ?? JOB_EXPIRY_SECONDS;
}

export async function enqueueStage(boss: PgBoss, client: PoolClient, job: StageJob): Promise<void> {
  await boss.send(QUEUE.stage, job, {
    db: inTransaction(client),
    expireInSeconds: await stageExpiryOf(client, job.generationId),
  });
}

/** A stage job that becomes visible at `startAfter`: how a deadline wakes the stage up. */
export async function enqueueStageAt(
  boss: PgBoss,
  client: PoolClient,
  job: StageJob,
  startAfter: Date,
): Promise<void> {
  await boss.send(QUEUE.stage, job, {
    db: inTransaction(client),
    startAfter,
    expireInSeconds: await stageExpiryOf(client, job.generationId),
  });
}

export async function enqueueRolloutBatches(
  boss: PgBoss,
  client: PoolClient,
  jobs: RolloutJob[],
  /** Per job (same order), for batches that may outlast the default expiry; null keeps it. */
  expireInSeconds: (number | null)[] = [],
): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    jobs.map((data, i) => ({
      name: QUEUE.rollout,
      data,
      ...queueDefaults,
      expireInSeconds: expireInSeconds[i] ?? queueDefaults.expireInSeconds,
    })),
    { db: inTransaction(client) },
  );
}

import type PgBoss from "pg-boss";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createBoss, ensureQueues } from "./queue";

/**
 * The web app's handle on the queue: it only enqueues (inside its own transactions), never works
 * or sweeps. One per process, started on first use.
 */
const globalForBoss = globalThis as unknown as { queueClient?: Promise<PgBoss> };

export function getQueueClient(): Promise<PgBoss> {
  globalForBoss.queueClient ??= (async () => {
    const { DATABASE_URL } = getEnv();
    if (!DATABASE_URL) throw new AppError("UNAVAILABLE", "DATABASE_URL is not set.");
    const boss = createBoss(DATABASE_URL, "client");
    await boss.start();
    await ensureQueues(boss);
    return boss;
  })().catch((error: unknown) => {
    globalForBoss.queueClient = undefined;
    throw error;
  });
  return globalForBoss.queueClient;
}

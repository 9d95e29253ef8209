import { Pool } from "pg";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * The raw `pg` pool, for what Prisma does slowly or not at all: set-based bulk statements, bulk
 * inserts of trajectories, and transactions that also enqueue jobs. One per process.
 */
const globalForPool = globalThis as unknown as { pgPool?: Pool };

export function getPool(): Pool {
  if (!globalForPool.pgPool) {
    const { DATABASE_URL } = getEnv();
    if (!DATABASE_URL) {
      throw new AppError("UNAVAILABLE", "DATABASE_URL is not set.");
    }
    globalForPool.pgPool = new Pool({ connectionString: DATABASE_URL, max: 10 });
    // A dropped idle connection is replaced on the next query; without a listener it would crash.
    globalForPool.pgPool.on("error", (error) =>
      console.error("[db] idle connection lost:", error.message),
    );
  }
  return globalForPool.pgPool;
}

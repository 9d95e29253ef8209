import { Pool } from "pg";
import { getEnv } from "@/lib/env";
import { prepareDatabase, type PreparedDatabase } from "./database";

/**
 * The database `npm start` would use: DATABASE_URL when set, else the embedded default (started
 * here if nothing runs it; stop it with `database.embedded?.stop()`).
 */
export async function openAppDatabase(log: (line: string) => void): Promise<PreparedDatabase> {
  const env = getEnv();
  return prepareDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.COEVOLVE_DATA_DIR,
    projectRoot: process.cwd(),
    embeddedPort: env.EMBEDDED_PG_PORT,
    log,
  });
}

/**
 * Runs `work` against the app's database (see openAppDatabase). Logs go to stderr, so a command
 * may stream its output to stdout.
 */
export async function withAppDatabase<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
  const database = await openAppDatabase((line) => console.error(`[db] ${line}`));
  const pool = new Pool({ connectionString: database.url, max: 4 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
    await database.embedded?.stop();
  }
}

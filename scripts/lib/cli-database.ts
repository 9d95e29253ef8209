import { Pool } from "pg";
import { getEnv } from "@/lib/env";
import { prepareDatabase } from "./database";

/**
 * Runs `work` against the app's database: DATABASE_URL if set, else the embedded default the way
 * `npm start` finds it. Logs go to stderr, so a command may stream its output to stdout.
 */
export async function withAppDatabase<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
  const env = getEnv();
  const database = await prepareDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.COEVOLVE_DATA_DIR,
    projectRoot: process.cwd(),
    embeddedPort: env.EMBEDDED_PG_PORT,
    log: (line) => console.error(`[db] ${line}`),
  });
  const pool = new Pool({ connectionString: database.url, max: 4 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
    await database.embedded?.stop();
  }
}

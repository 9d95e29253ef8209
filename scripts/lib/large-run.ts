import { parseEnv } from "@/lib/env";
import { prepareDatabase, type PreparedDatabase } from "./database";

/** The one large run `npm run seed:large` writes and `npm run bench:pages` measures. */
export const LARGE_RUN_SLUG = "large-benchmark";
/** The generation that holds most tasks, so its deepest table page is deep. */
export const BIG_GENERATION = 5;

/**
 * The database `npm start` would use: DATABASE_URL when set, else the embedded default (started
 * here if nothing runs it; stop it with `database.embedded?.stop()`).
 */
export async function openAppDatabase(log: (line: string) => void): Promise<PreparedDatabase> {
  const env = parseEnv(process.env);
  return prepareDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.COEVOLVE_DATA_DIR,
    projectRoot: process.cwd(),
    embeddedPort: env.EMBEDDED_PG_PORT,
    log,
  });
}

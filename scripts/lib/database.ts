import { createHash } from "node:crypto";
import path from "node:path";
import { Client } from "pg";
import {
  ensureDatabase,
  isDataDirUsable,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";
import { AppError } from "@/lib/errors";

export const APP_DATABASE = "coevolve";

export type PreparedDatabase = {
  url: string;
  /** Present when we started an embedded server, which we must then stop. */
  embedded: EmbeddedPostgres | null;
};

export type PrepareDatabaseOptions = {
  databaseUrl?: string;
  /** COEVOLVE_DATA_DIR as the person set it; undefined means the project default. */
  dataDir?: string;
  projectRoot: string;
  embeddedPort?: number;
  isEphemeral?: boolean;
  log: (line: string) => void;
};

/** DATABASE_URL if given (checked reachable), else an embedded server; migrated either way. */
export async function prepareDatabase(options: PrepareDatabaseOptions): Promise<PreparedDatabase> {
  if (options.databaseUrl) {
    await assertReachable(options.databaseUrl);
    await migrate({ connectionString: options.databaseUrl, log: options.log });
    return { url: options.databaseUrl, embedded: null };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(resolveDataDir(options), "postgres"),
    port: options.embeddedPort,
    isEphemeral: options.isEphemeral,
    log: options.log,
  });
  try {
    await ensureDatabase(embedded.urlFor("postgres"), APP_DATABASE);
    const url = embedded.urlFor(APP_DATABASE);
    await migrate({ connectionString: url, log: options.log });
    return { url, embedded };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * The project's .data folder, unless the postgres account (used when running as root) cannot
 * reach it, e.g. in a clone under /root: then a per-project folder under /var/lib. An explicit
 * COEVOLVE_DATA_DIR is always used as given, and refused with a clear message if unusable.
 */
function resolveDataDir(options: PrepareDatabaseOptions): string {
  if (options.dataDir) return path.resolve(options.dataDir);
  const projectDataDir = path.join(options.projectRoot, ".data");
  if (isDataDirUsable(path.join(projectDataDir, "postgres"))) return projectDataDir;
  const projectHash = createHash("sha256").update(options.projectRoot).digest("hex").slice(0, 12);
  const fallback = path.join("/var/lib/coevolve-studio", projectHash);
  options.log(
    `the postgres user cannot reach ${projectDataDir}; keeping the database in ${fallback} ` +
      "(set COEVOLVE_DATA_DIR to choose another folder)",
  );
  return fallback;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}

async function assertReachable(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new AppError(
      "UNAVAILABLE",
      `Cannot connect to DATABASE_URL (${redactUrl(url)}): ${(error as Error).message || String(error)}`,
      {
        hint: "Check that the server runs and the URL, user and password are right, or unset DATABASE_URL to use the embedded Postgres.",
        cause: error,
      },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

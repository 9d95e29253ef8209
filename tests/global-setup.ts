import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated database of the test run's own throwaway server, never the user's data. */
    databaseUrl: string;
    /** The same server's maintenance database, for tests that create scratch databases. */
    adminDatabaseUrl: string;
  }
}

/** One throwaway embedded Postgres for the whole test run, deleted afterwards. */
export default async function setup(project: TestProject) {
  // Under /tmp (world-enterable) so the postgres account can reach it when tests run as root.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-test-pg-"));
  fs.chmodSync(root, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(root, "data"),
    isEphemeral: true,
  });
  const adminDatabaseUrl = server.urlFor("postgres");
  await ensureDatabase(adminDatabaseUrl, "coevolve_test");
  const databaseUrl = server.urlFor("coevolve_test");
  await migrate({ connectionString: databaseUrl });

  project.provide("databaseUrl", databaseUrl);
  project.provide("adminDatabaseUrl", adminDatabaseUrl);

  return async () => {
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
}

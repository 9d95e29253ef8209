import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { inject } from "vitest";

/** The test run's migrated database (see tests/global-setup.ts). */
export function testDatabaseUrl(): string {
  return inject("databaseUrl");
}

export type ScratchDatabase = { url: string; drop: () => Promise<void> };

/** An empty database of its own, for tests that migrate or break a schema. */
export async function createScratchDatabase(prefix = "scratch"): Promise<ScratchDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

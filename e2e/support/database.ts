import fs from "node:fs";
import { Client } from "pg";
import { E2E_DATABASE_URL_FILE } from "../../playwright.config";

/** The e2e app's own throwaway database (written by `start.ts --ephemeral`). */
export function e2eDatabaseUrl(): string {
  const url = fs.readFileSync(E2E_DATABASE_URL_FILE, "utf8").trim();
  const host = new URL(url).hostname;
  // Same guard as dub's assert-local-database: e2e tests write freely, so never a remote server.
  if (host !== "127.0.0.1" && host !== "localhost") {
    throw new Error(`Refusing to run e2e tests against a non-local database (${host}).`);
  }
  return url;
}

export async function withE2eDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

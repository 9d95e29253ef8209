import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";
import { withClient } from "@/tests/support/db";

const servers: EmbeddedPostgres[] = [];
const roots: string[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

it("starts several servers at once on distinct free ports, each answering queries", async () => {
  const dataDirs = Array.from({ length: 3 }, () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-pg-race-"));
    fs.chmodSync(root, 0o755);
    roots.push(root);
    return path.join(root, "data");
  });

  const started = await Promise.all(
    dataDirs.map((dataDir) => startEmbeddedPostgres({ dataDir, isEphemeral: true })),
  );
  servers.push(...started);

  expect(new Set(started.map((server) => server.port)).size).toBe(3);
  for (const server of started) {
    const answer = await withClient(server.urlFor("postgres"), (client) =>
      client.query("SELECT 1 AS one"),
    );
    expect(answer.rows[0]).toEqual({ one: 1 });
  }
});

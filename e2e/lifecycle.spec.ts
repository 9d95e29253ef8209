import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Client } from "pg";
import { descendantPids, isAlive, spawnStart, type StartedApp } from "./support/start-process";

// These drive `npm start`'s process directly: start-up, shutdown and its error messages.
test.describe.configure({ mode: "serial" });

let nextPort = 3200;
const running: StartedApp[] = [];
const tempDirs: string[] = [];

function tempDir(mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-lifecycle-"));
  fs.chmodSync(dir, mode);
  tempDirs.push(dir);
  return dir;
}

async function waitForReady(app: StartedApp): Promise<string> {
  await expect
    .poll(() => (app.child.exitCode !== null ? "exited" : app.output()), { timeout: 60_000 })
    .toMatch(/is ready at http:\/\/\S+|exited/);
  expect(app.child.exitCode, app.output()).toBeNull();
  return /is ready at (http:\/\/\S+)/.exec(app.output())![1]!;
}

test.afterEach(async () => {
  for (const app of running.splice(0)) {
    if (app.child.exitCode === null) {
      app.child.kill("SIGTERM");
      await app.exited;
    }
  }
});

test.afterAll(() => {
  for (const dir of tempDirs) {
    fs.chmodSync(dir, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} stops the app and the embedded Postgres, leaving no process behind`, async () => {
    const port = nextPort++;
    const app = spawnStart({ PORT: String(port), COEVOLVE_DATA_DIR: tempDir() });
    running.push(app);
    const url = await waitForReady(app);
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({ ok: true });
    const children = descendantPids(app.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2); // postgres (and its workers) and next

    app.child.kill(signal);

    expect(await app.exited).toBe(0);
    await expect.poll(() => children.filter(isAlive), { timeout: 15_000 }).toEqual([]);
    expect(app.output()).toContain("[coevolve] stopped");
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
}

test("data in the project data folder survives a restart", async () => {
  const dataDir = tempDir();
  const port = nextPort++;
  const first = spawnStart({
    PORT: String(port),
    COEVOLVE_DATA_DIR: dataDir,
    COEVOLVE_DATABASE_URL_FILE: path.join(dataDir, "url"),
  });
  running.push(first);
  await waitForReady(first);
  const client = new Client({
    connectionString: fs.readFileSync(path.join(dataDir, "url"), "utf8"),
  });
  await client.connect();
  await client.query(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ('kept', 'Kept across restarts', 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now())`,
  );
  await client.end();
  first.child.kill("SIGTERM");
  await first.exited;

  const second = spawnStart({ PORT: String(port), COEVOLVE_DATA_DIR: dataDir });
  running.push(second);
  const url = await waitForReady(second);
  const page = await (await fetch(url)).text();
  expect(page).toContain("Kept across restarts");
  expect(second.output()).not.toContain("initialising a new Postgres cluster");
});

test("the first start on an empty database creates the demo and computes its first rounds", async () => {
  const dataDir = tempDir();
  const urlFile = path.join(dataDir, "url");
  const startedAt = Date.now();
  const app = spawnStart({
    PORT: String(nextPort++),
    COEVOLVE_DATA_DIR: dataDir,
    COEVOLVE_DATABASE_URL_FILE: urlFile,
    COEVOLVE_DEMO: "1",
  });
  running.push(app);
  const url = await waitForReady(app);
  expect(app.output()).toContain("created the demo runs");

  const client = new Client({ connectionString: fs.readFileSync(urlFile, "utf8") });
  await client.connect();
  try {
    // Every demo run reaches generation 1 (a full round) in the background.
    await expect
      .poll(
        async () => {
          const { rows } = await client.query<{ mode: string; done: number }>(
            `SELECT r.mode, count(*) FILTER (WHERE g.status = 'DONE')::int AS done
               FROM "Run" r JOIN "Generation" g ON g."runId" = r.id GROUP BY r.mode ORDER BY r.mode`,
          );
          return rows.map((row) => `${row.mode}:${row.done >= 2}`);
        },
        { timeout: 120_000, intervals: [1000] },
      )
      .toEqual(["COEVOLVE:true", "STATIC:true", "UNIFORM:true"]);
    console.log(
      `demo: first round of all three runs done ${((Date.now() - startedAt) / 1000).toFixed(1)} s after start`,
    );
  } finally {
    await client.end();
  }
  const page = await (await fetch(url)).text();
  for (const name of ["Demo · co-evolve", "Demo · static baseline", "Demo · uniform control"]) {
    expect(page).toContain(name);
  }
});

test("an unreachable DATABASE_URL fails fast with a clear message and a non-zero exit", async () => {
  const app = spawnStart({
    PORT: String(nextPort++),
    DATABASE_URL: "postgresql://someone:secret-password@127.0.0.1:9/nowhere",
  });
  running.push(app);

  expect(await app.exited).toBe(1);
  expect(app.output()).toContain(
    "Cannot connect to DATABASE_URL (postgresql://someone:***@127.0.0.1:9/nowhere)",
  );
  expect(app.output()).toContain("unset DATABASE_URL to use the embedded Postgres");
  expect(app.output()).not.toContain("secret-password");
});

test("a malformed DATABASE_URL is refused before anything starts", async () => {
  const app = spawnStart({ PORT: String(nextPort++), DATABASE_URL: "mysql://localhost/db" });
  running.push(app);

  expect(await app.exited).toBe(1);
  expect(app.output()).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
});

test("a taken port is reported with the way out", async () => {
  const port = nextPort++;
  const blocker = net.createServer().listen(port, "127.0.0.1");
  await new Promise((resolve) => blocker.once("listening", resolve));
  try {
    const app = spawnStart({ PORT: String(port), COEVOLVE_DATA_DIR: tempDir() });
    running.push(app);

    expect(await app.exited).toBe(1);
    expect(app.output()).toContain(`Port ${port} is already in use.`);
    expect(app.output()).toContain(`PORT=${port + 1} npm start`);
    expect(app.output()).not.toContain("embedded Postgres ready");
  } finally {
    blocker.close();
  }
});

test("a data folder the postgres user cannot use is refused with what to do", async () => {
  // As root, Postgres runs as `postgres`, which cannot enter a root-only folder; otherwise a
  // folder without permissions blocks our own user the same way.
  const isRoot = process.getuid?.() === 0;
  const locked = tempDir(isRoot ? 0o700 : 0o000);
  const app = spawnStart({
    PORT: String(nextPort++),
    COEVOLVE_DATA_DIR: path.join(locked, "data"),
  });
  running.push(app);

  expect(await app.exited).toBe(1);
  const cluster = path.join(locked, "data", "postgres");
  expect(app.output()).toContain(`The data folder ${cluster} cannot be used`);
  if (isRoot) expect(app.output()).toContain(`(${locked} does not let it in)`);
  expect(app.output()).toContain("Point COEVOLVE_DATA_DIR at a folder the postgres user can reach");
});

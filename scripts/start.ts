/**
 * `npm start`: the whole product on one machine. Without DATABASE_URL it runs an embedded
 * Postgres with its data in .data/ (kept across restarts); with it, it uses that server. Then it
 * migrates, builds the dashboard if sources changed, and serves it. Ctrl-C or SIGTERM stops
 * everything it started.
 *
 * Flags: --dev (next dev instead of a production build), --ephemeral (throwaway data folder,
 * deleted on exit: for tests), --skip-build (serve the existing build even if stale: for tests
 * that start several copies beside a running one).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import { isPortFree } from "@/lib/db/embedded-postgres";
import { seedDemoIfEmpty } from "@/lib/db/mutations/demo";
import { createBoss, ensureQueues } from "@/lib/jobs/queue";
import { parseEnv } from "@/lib/env";
import { AppError, isAppError } from "@/lib/errors";
import { ensureBuilt, nextBin } from "./lib/build";
import { prepareDatabase, redactUrl, type PreparedDatabase } from "./lib/database";

const projectRoot = process.cwd();
const args = new Set(process.argv.slice(2));
const isDev = args.has("--dev");
const isEphemeral = args.has("--ephemeral");
const isBuildSkipped = args.has("--skip-build");
const log = (line: string) => console.log(`[coevolve] ${line}`);

type Started = {
  database: PreparedDatabase | null;
  app: ChildProcess | null;
  workers: ChildProcess[];
  tempDir: string | null;
};
const started: Started = { database: null, app: null, workers: [], tempDir: null };
let isStopping = false;

async function main(): Promise<void> {
  const startedAt = Date.now();
  const env = parseEnv(process.env);
  const host = process.env.HOST ?? "127.0.0.1";

  if (!(await isPortFree(env.PORT, host))) {
    throw new AppError("CONFLICT", `Port ${env.PORT} is already in use.`, {
      hint: `Stop what listens there, or start on another port: PORT=${env.PORT + 1} npm start`,
    });
  }

  if (isEphemeral) {
    started.tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-ephemeral-"));
    fs.chmodSync(started.tempDir, 0o755);
  }
  const [database] = await Promise.all([
    prepareDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: started.tempDir ?? env.COEVOLVE_DATA_DIR,
      projectRoot,
      embeddedPort: env.EMBEDDED_PG_PORT,
      isEphemeral,
      log,
    }),
    isDev || isBuildSkipped ? Promise.resolve() : ensureBuilt(projectRoot, log),
  ]);
  started.database = database;
  log(`database ready: ${redactUrl(database.url)}`);
  // For tests that need to reach the app's throwaway database directly.
  if (process.env.COEVOLVE_DATABASE_URL_FILE) {
    fs.writeFileSync(process.env.COEVOLVE_DATABASE_URL_FILE, database.url, { mode: 0o600 });
  }

  if (process.env.COEVOLVE_DEMO !== "0") {
    const slugs = await seedDemo(database.url);
    if (slugs.length > 0) {
      log(`created the demo runs (${slugs.join(", ")}); their rounds compute in the background`);
    }
  }
  const workerCount = Number(process.env.COEVOLVE_WORKERS ?? 1);
  for (let i = 0; i < workerCount; i += 1) {
    const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: projectRoot,
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DATABASE_URL: database.url },
    });
    started.workers.push(worker);
    watchUnexpectedExit(worker, "a worker");
  }

  const app = spawn(
    process.execPath,
    [nextBin(projectRoot), isDev ? "dev" : "start", "--port", String(env.PORT), "--hostname", host],
    {
      cwd: projectRoot,
      // Its own process group, so stopping it also stops the next-server it forks.
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  started.app = app;
  watchUnexpectedExit(app, "the web server");

  const url = `http://${host === "0.0.0.0" ? "localhost" : host}:${env.PORT}`;
  await waitForHealthy(`${url}/api/health`);
  log(
    `CoEvolve Studio is ready at ${url} (started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
  );
}

function watchUnexpectedExit(child: ChildProcess, what: string): void {
  child.once("exit", (code, signal) => {
    if (isStopping) return;
    console.error(`[coevolve] ${what} exited unexpectedly (${signal ?? `code ${code}`})`);
    void stop(1);
  });
}

async function seedDemo(databaseUrl: string): Promise<string[]> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const boss = createBoss(databaseUrl, "client");
  try {
    await boss.start();
    await ensureQueues(boss);
    return await seedDemoIfEmpty({ pool, boss, actor: "system" });
  } finally {
    await boss.stop({ graceful: false, close: true }).catch(() => {});
    await pool.end();
  }
}

async function waitForHealthy(healthUrl: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (isStopping) return;
    try {
      const response = await fetch(healthUrl);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new AppError(
    "UNAVAILABLE",
    `The web server did not become healthy at ${healthUrl} within 120 s.`,
  );
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killGroup(child, "SIGTERM");
  const forced = setTimeout(() => killGroup(child, "SIGKILL"), 12_000);
  await exited;
  clearTimeout(forced);
  killGroup(child, "SIGKILL"); // stragglers left in the group
}

async function stop(exitCode: number): Promise<never> {
  if (isStopping) return new Promise<never>(() => {});
  isStopping = true;
  const children = [...started.workers, ...(started.app ? [started.app] : [])];
  await Promise.all(children.map(stopChild));
  if (started.database?.embedded) await started.database.embedded.stop();
  if (started.tempDir) fs.rmSync(started.tempDir, { recursive: true, force: true });
  log("stopped");
  process.exit(exitCode);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => void stop(0));
}

// `npm start` runs us under `sh -c`, which dies on SIGTERM without passing it on: when our parent
// goes away we are re-parented, and take that as the signal to stop what we started.
const originalParent = process.ppid;
setInterval(() => {
  if (process.ppid !== originalParent) void stop(0);
}, 500).unref();

main().catch(async (error: unknown) => {
  if (isAppError(error)) {
    console.error(`\n[coevolve] error: ${error.message}`);
    if (error.hint) console.error(`[coevolve] ${error.hint}`);
  } else if (error instanceof Error && error.message.startsWith("Invalid environment")) {
    console.error(`\n[coevolve] error: ${error.message}`);
  } else {
    console.error("[coevolve] unexpected error:", error);
  }
  await stop(1);
});

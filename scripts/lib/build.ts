import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";

const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];
const SKIP = new Set(["node_modules", ".next", ".data"]);

/** Newest modification time under the sources the production build depends on. */
function newestSourceMtime(projectRoot: string): number {
  let newest = 0;
  const visit = (target: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(target);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(target)) {
        if (!SKIP.has(entry) && !entry.endsWith(".test.ts")) visit(path.join(target, entry));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const source of SOURCES) visit(path.join(projectRoot, source));
  return newest;
}

/** Where `next build` writes (next.config.mjs reads the same variable). */
const distDirOf = () => process.env.NEXT_DIST_DIR ?? ".next";

export function isBuildFresh(projectRoot: string, distDir = distDirOf()): boolean {
  const buildId = path.join(projectRoot, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  return fs.statSync(buildId).mtimeMs >= newestSourceMtime(projectRoot);
}

/** `next build` unless the existing build is newer than every source it was made from. */
export async function ensureBuilt(projectRoot: string, log: (line: string) => void): Promise<void> {
  if (isBuildFresh(projectRoot)) return;
  log("building the dashboard (first start, or sources changed)…");
  const startedAt = Date.now();
  const child = spawn(process.execPath, [nextBin(projectRoot), "build"], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) {
    throw new AppError("INTERNAL", `next build failed:\n${output.trim()}`);
  }
  // The build is as fresh as the sources it read when it started: a file changed while it ran
  // (a checkout, an editor save) must still make the next start rebuild.
  const startedAtSeconds = startedAt / 1000;
  fs.utimesSync(
    path.join(projectRoot, distDirOf(), "BUILD_ID"),
    startedAtSeconds,
    startedAtSeconds,
  );
  log(`built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

export function nextBin(projectRoot: string): string {
  return path.join(projectRoot, "node_modules", "next", "dist", "bin", "next");
}

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";

export type StartedApp = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
};

/** `npm start`'s script as its own process, the way a person runs it (not through Playwright). */
export function spawnStart(
  env: Record<string, string>,
  args: string[] = ["--skip-build"],
): StartedApp {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", ...args], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      DATABASE_URL: "",
      COEVOLVE_DATABASE_URL_FILE: "",
      COEVOLVE_DEMO: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return { child, output: () => output, exited };
}

/** Every live process below `pid` (children, grandchildren…), read from /proc. */
export function descendantPids(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(state); // a zombie has exited; it only waits to be reaped
  } catch {
    return false;
  }
}

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFetchHandler } from "@/lib/engine/agents/openai/node-http";
import { parseRunConfig } from "@/lib/validations/run-config";
import { seedExportRun, type SeededRun } from "@/tests/support/export-fixtures";
import { testDatabaseUrl } from "@/tests/support/db";

const run = promisify(execFile);

/** The CLIs as a person runs them: a child process, DATABASE_URL, exit codes, stdout/stderr. */
async function cli(script: "export" | "import", args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", `scripts/${script}.ts`, ...args],
      { env: { ...process.env, DATABASE_URL: testDatabaseUrl() }, maxBuffer: 64 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let pool: Pool;
let source: SeededRun;
let target: SeededRun;
let dir: string;

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 2 });
  source = await seedExportRun(pool, { name: "cli-src", tasks: 8, samplesPerTask: 3 });
  target = await seedExportRun(pool, { name: "cli-dst", tasks: 0, samplesPerTask: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-cli-"));
});

afterAll(async () => {
  await pool?.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run export / npm run import", () => {
  it("exports trajectories to a file and tasks to stdout, and refuses an unknown run with exit 2", async () => {
    const out = path.join(dir, "train.jsonl");
    const exported = await cli("export", ["--run", source.slug, "--out", out]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`wrote 24 rows`);
    expect(fs.readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(24);

    const tasks = await cli("export", ["--run", source.slug, "--format", "tasks", "--out", "-"]);
    expect(tasks.code).toBe(0);
    expect(tasks.stdout.trimEnd().split("\n")).toHaveLength(8);
    fs.writeFileSync(path.join(dir, "tasks.jsonl"), tasks.stdout);

    const unknown = await cli("export", ["--run", "no-such-run", "--out", "-"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: Run "no-such-run" does not exist.');
    const badFlag = await cli("export", ["--run", source.slug, "--format", "xml", "--out", "-"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("--format:");
  });

  it("imports the exported tasks, and exits 1 with line-numbered errors for a bad file", async () => {
    const bad = path.join(dir, "bad.jsonl");
    fs.writeFileSync(bad, '{"instruction": "x"}\nnot json\n');
    const failed = await cli("import", ["--run", target.slug, "--file", bad]);
    expect(failed.code).toBe(1);
    const summary = JSON.parse(failed.stdout);
    expect(summary.imported).toBe(0);
    expect(summary.errors.map((e: { line: number }) => e.line)).toEqual([1, 1, 1, 2]);
    expect(failed.stderr).toContain("line 2: not valid JSON");

    const file = path.join(dir, "tasks.jsonl");
    const dry = await cli("import", ["--run", target.slug, "--file", file, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ imported: 8, isDryRun: true, errors: [] });
    const ok = await cli("import", ["--run", target.slug, "--file", file]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      imported: 8,
      duplicates: [],
      errors: [],
      isDryRun: false,
    });
    const { rows } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1 AND origin = 'IMPORTED'`,
      [target.runId],
    );
    expect(rows[0]!.count).toBe(8);
  });

  it("exits 2 naming the URL when the run's remote environment cannot be reached, writing nothing", async () => {
    const closed = await serveFetchHandler(async () => new Response(null, { status: 204 }));
    await closed.close();
    const remote = await seedExportRun(pool, { name: "cli-remote", tasks: 2, samplesPerTask: 1 });
    await pool.query(`UPDATE "Run" SET environment = 'http', config = $2 WHERE id = $1`, [
      remote.runId,
      JSON.stringify(
        parseRunConfig({ seed: 7, environment: { kind: "http", baseUrl: closed.url } }),
      ),
    ]);
    const out = path.join(dir, "remote.jsonl");
    const exported = await cli("export", ["--run", remote.slug, "--out", out]);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain(`error: Environment ${closed.url} is not available: `);
    expect(fs.existsSync(out)).toBe(false);

    const imported = await cli("import", [
      "--run",
      remote.slug,
      "--file",
      path.join(dir, "tasks.jsonl"),
    ]);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain(`error: Environment ${closed.url} is not available: `);
    const { rows } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1`,
      [remote.runId],
    );
    expect(rows[0]!.count).toBe(2);
  });
});

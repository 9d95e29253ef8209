import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importTasks, type ImportSummary } from "@/lib/db/mutations/import-tasks";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import type { Task } from "@/lib/engine/types";
import { prepareExport } from "@/lib/export/create-export";
import { ExportQuerySchema } from "@/lib/validations/export";
import { seedExportRun } from "@/tests/support/export-fixtures";
import { testDatabaseUrl } from "@/tests/support/db";
import { formatImportError } from "./prepare";

let pool: Pool;
const world = createToolWorld();

beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
});

afterAll(async () => {
  await pool?.end();
});

function makeTask(seed: number, skill = "lookup", level = 1): Task {
  return world.local!.generateTask({
    skill,
    level,
    seed,
    split: "train",
    origin: "seed",
    generation: 0,
  });
}

const portable = (task: Task) => ({
  instruction: task.instruction,
  skill: task.skill,
  level: task.level,
  spec: task.spec,
});

const jsonl = (...lines: unknown[]) =>
  lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n";

async function emptyRun(name: string) {
  return seedExportRun(pool, { name, tasks: 0, samplesPerTask: 0 });
}

async function taskCount(runId: number): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1`,
    [runId],
  );
  return rows[0]!.count;
}

const run = (
  slug: string,
  text: string,
  extra: { format?: "jsonl" | "csv"; isDryRun?: boolean } = {},
) =>
  importTasks({
    pool,
    slug,
    source: [text],
    format: extra.format ?? "jsonl",
    isDryRun: extra.isDryRun,
  });

const messages = (summary: ImportSummary) => summary.errors.map(formatImportError);

describe("import of seed tasks", () => {
  it("imports valid tasks into generation 0 as approved, valid, IMPORTED training tasks", async () => {
    const target = await emptyRun("imp-ok");
    const tasks = [makeTask(1), makeTask(2, "message", 2), makeTask(3, "pay", 3)];
    const summary = await run(target.slug, jsonl(...tasks.map(portable)));
    expect(summary).toEqual({ imported: 3, duplicates: [], errors: [], isDryRun: false });
    const { rows } = await pool.query(
      `SELECT t.key, t.fingerprint, t.origin, t.split, t."validationStatus", t."reviewStatus",
              t.reviewer, g.index
         FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
        WHERE t."runId" = $1 ORDER BY t.id`,
      [target.runId],
    );
    expect(rows).toEqual(
      tasks.map((task) => ({
        key: task.id,
        fingerprint: task.fingerprint,
        origin: "IMPORTED",
        split: "TRAIN",
        validationStatus: "VALID",
        reviewStatus: "APPROVED",
        reviewer: "import",
        index: 0,
      })),
    );
  });

  it("reports every bad line with its number and message, and writes nothing", async () => {
    const target = await emptyRun("imp-bad");
    const good = makeTask(11);
    const withoutEffects = makeTask(12, "message", 1);
    const reference = world.local!.referenceSolution(withoutEffects);
    const lines = [
      portable(good), // 1 valid
      "{not json", // 2
      "[1, 2]", // 3
      { skill: "lookup", level: 1, spec: good.spec }, // 4 no instruction
      { ...portable(makeTask(13)), instrution: "typo" }, // 5 unknown field
      { ...portable(makeTask(14)), skill: "foo" }, // 6 unknown skill
      { ...portable(makeTask(15)), level: 9 }, // 7 level out of range
      { ...portable(makeTask(16)), spec: { ...makeTask(16).spec, worldSeed: "x" } }, // 8
      { ...portable(makeTask(17)), reference: [{ tool: "launch_rocket", arguments: {} }] }, // 9
      { ...portable(withoutEffects), reference: reference.filter((c) => c.tool === "finish") }, // 10
      "", // 11 blank lines are skipped
      { ...portable(makeTask(18)), skill: "message" }, // 12 skill differs from the spec's
      `{"instruction": "${"x".repeat(1_100_000)}"}`, // 13 huge line
    ];
    const summary = await run(target.slug, jsonl(...lines));
    expect(summary.imported).toBe(0);
    expect(messages(summary)).toEqual([
      expect.stringMatching(/^line 2: not valid JSON \(/),
      "line 3: expected a JSON object",
      "line 4: instruction: Invalid input: expected string, received undefined",
      'line 5: Unrecognized key: "instrution"',
      expect.stringMatching(/^line 6: skill: unknown skill 'foo' \(known: .*lookup/),
      "line 7: level: level must be one of 1, 2, 3, 4, 5, got 9",
      "line 8: spec.worldSeed: Invalid input: expected number, received string",
      "line 9: reference: reference step 1 launch_rocket({}) is not an action the agent can take",
      expect.stringMatching(/^line 10: reference: reference solution fails its checker: missing: /),
      "line 12: skill: 'message' differs from spec.skill 'lookup'",
      "line 13: line is longer than 1,000,000 characters",
    ]);
    expect(await taskCount(target.runId)).toBe(0);
  });

  it("reports duplicates within the file and against the run's tasks, and skips them", async () => {
    const target = await emptyRun("imp-dup");
    const [a, b] = [makeTask(21), makeTask(22)];
    const first = await run(target.slug, jsonl(portable(a), portable(b), portable(a)));
    expect(first.imported).toBe(2);
    expect(first.errors).toEqual([]);
    expect(first.duplicates).toEqual([{ line: 3, fingerprint: a.fingerprint, firstLine: 1 }]);

    const { rows } = await pool.query<{ id: number; fingerprint: string }>(
      `SELECT id, fingerprint FROM "Task" WHERE "runId" = $1`,
      [target.runId],
    );
    const idOf = (task: Task) => rows.find((row) => row.fingerprint === task.fingerprint)!.id;
    const again = await run(target.slug, jsonl(portable(b), portable(makeTask(23))));
    expect(again.imported).toBe(1);
    expect(again.duplicates).toEqual([{ line: 1, fingerprint: b.fingerprint, taskId: idOf(b) }]);
    expect(await taskCount(target.runId)).toBe(3);
  });

  it("reads CSV with a header row and JSON cells, and reports CSV-specific errors", async () => {
    const target = await emptyRun("imp-csv");
    const quote = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`;
    const [a, b] = [makeTask(31), makeTask(32, "schedule", 2)];
    const csv = [
      "instruction,skill,level,spec",
      ...[a, b].map(
        (t) => `"${t.instruction.replaceAll('"', '""')}",${t.skill},${t.level},${quote(t.spec)}`,
      ),
    ].join("\r\n");
    const summary = await run(target.slug, csv, { format: "csv" });
    expect(summary.errors).toEqual([]);
    expect(summary.imported).toBe(2);

    const badHeader = await run(target.slug, "instruction,skil,level,spec\n", { format: "csv" });
    expect(messages(badHeader)).toEqual([
      "line 1: header: missing column(s) skill; unknown column(s) skil (expected instruction, skill, level, spec, reference, difficulty)",
    ]);
    const badRows = await run(
      target.slug,
      [
        "instruction,skill,level,spec",
        `Do it,lookup,1,{not json}`,
        `Hi,lookup,x,"{}"`,
        `"open`,
      ].join("\n"),
      { format: "csv" },
    );
    expect(messages(badRows)).toEqual([
      expect.stringMatching(/^line 2: spec: not valid JSON \(/),
      "line 3: level: Invalid input: expected number, received string",
      "line 4: a quoted field is never closed",
    ]);
    expect(await taskCount(target.runId)).toBe(2);
  });

  it("refuses an empty file, an unknown run and a run still seeding; a dry run writes nothing", async () => {
    const target = await emptyRun("imp-empty");
    expect(messages(await run(target.slug, ""))).toEqual(["the file has no tasks"]);
    expect(messages(await run(target.slug, "\n\n", { format: "csv" }))).toEqual([
      "the file has no tasks",
    ]);
    await expect(run("no-such-run", jsonl(portable(makeTask(41))))).rejects.toThrow(
      'Run "no-such-run" does not exist.',
    );
    await pool.query(`UPDATE "Generation" SET stage = 'SEED' WHERE id = $1`, [target.generationId]);
    await expect(run(target.slug, jsonl(portable(makeTask(41))))).rejects.toThrow(
      "is still building its seed pool and held-out set",
    );
    expect(await taskCount(target.runId)).toBe(0);
    const dry = await run(target.slug, jsonl(portable(makeTask(41))), { isDryRun: true });
    expect(dry).toEqual({ imported: 1, duplicates: [], errors: [], isDryRun: true });
    expect(await taskCount(target.runId)).toBe(0);
  });

  it("round-trips a generation's approved tasks through export and import", async () => {
    const source = await seedExportRun(pool, {
      name: "rt-src",
      tasks: 14,
      samplesPerTask: 1,
      unapprovedEvery: 5,
    });
    const exported = await prepareExport({
      db: pool,
      slug: source.slug,
      ...ExportQuerySchema.parse({ format: "tasks", generation: 0 }),
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of exported.body) chunks.push(chunk);
    const target = await emptyRun("rt-dst");
    const summary = await importTasks({ pool, slug: target.slug, source: chunks, format: "jsonl" });
    expect(summary.errors).toEqual([]);
    const approved = source.tasks.filter((t) => t.task.review.status === "approved");
    expect(approved.length).toBeLessThan(source.tasks.length);
    expect(summary.imported).toBe(approved.length);
    expect(exported.total).toBe(approved.length);

    const { rows } = await pool.query(
      `SELECT key, fingerprint, instruction, spec, skill, level, "estimatedDifficulty"
         FROM "Task" WHERE "runId" = $1 ORDER BY id`,
      [target.runId],
    );
    expect(rows).toEqual(
      approved.map(({ task }) => ({
        key: task.id,
        fingerprint: task.fingerprint,
        instruction: task.instruction,
        spec: task.spec,
        skill: task.skill,
        level: task.level,
        estimatedDifficulty: task.estimatedDifficulty,
      })),
    );
  });
});

import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { Pool } from "pg";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import { seedExportRun, type SeededRun } from "@/tests/support/export-fixtures";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eDatabaseUrl, withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

let pool: Pool;
let source: SeededRun;
let target: SeededRun;

test.beforeAll(async () => {
  pool = new Pool({ connectionString: e2eDatabaseUrl(), max: 2 });
  source = await seedExportRun(pool, {
    name: "e2e-export",
    tasks: 120,
    samplesPerTask: 25,
    unapprovedEvery: 4,
  });
  target = await seedExportRun(pool, { name: "e2e-import", tasks: 0, samplesPerTask: 0 });
});

test.afterAll(async () => {
  await pool?.end();
});

async function count(sql: string, params: unknown[]): Promise<number> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(sql, params);
    return rows[0]!.count;
  });
}

const importedTasks = () =>
  count(`SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1`, [target.runId]);

const world = createToolWorld();
function taskLine(seed: number, overrides: Record<string, unknown> = {}): string {
  const task = world.local!.generateTask({
    skill: "lookup",
    level: 1,
    seed,
    split: "train",
    origin: "seed",
    generation: 0,
  });
  return JSON.stringify({
    instruction: task.instruction,
    skill: task.skill,
    level: task.level,
    spec: task.spec,
    ...overrides,
  });
}

test("Export shows progress and downloads a file with one line per approved trajectory", async ({
  page,
}) => {
  await page.goto(`/runs/${source.slug}/import`);
  // Remember every progress value the bar shows: a fast export may show it only briefly.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Export progress"]');
      if (bar)
        seen.push(`${bar.getAttribute("aria-valuenow")}/${bar.getAttribute("aria-valuemax")}`);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = await downloadPromise;

  const expected = await count(
    `SELECT count(*)::int AS count FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
      WHERE t."runId" = $1 AND t."reviewStatus" = 'APPROVED' AND tr.purpose = 'TRAIN'`,
    [source.runId],
  );
  expect(expected).toBeGreaterThan(1000);
  await expect(page.getByRole("status").filter({ hasText: "Exported" })).toHaveText(
    `Exported ${expected} rows to ${source.slug}-trajectories.jsonl.`,
  );
  expect(download.suggestedFilename()).toBe(`${source.slug}-trajectories.jsonl`);
  const text = fs.readFileSync((await download.path())!, "utf8");
  const lines = text.split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(expected);
  expect(JSON.parse(lines[0]!).messages[1].role).toBe("user");

  const seen = await page.evaluate(
    () => (window as unknown as { progressSeen: string[] }).progressSeen,
  );
  // Before the headers arrive the bar is indeterminate ("null/null"); after, it counts to the total.
  const determinate = seen.filter((value) => value !== "null/null");
  expect(determinate.length).toBeGreaterThan(0);
  expect(determinate.every((value) => value.endsWith(`/${expected}`))).toBe(true);
  expect(determinate.some((value) => Number(value.split("/")[0]) > 0)).toBe(true);
});

test("a file with two bad lines shows both line numbers and imports nothing", async ({ page }) => {
  await page.goto(`/runs/${target.slug}/import`);
  const file = [taskLine(1), taskLine(2, { skill: "juggling" }), "{oops", taskLine(3)].join("\n");
  await page.getByLabel("Tasks file").setInputFiles({
    name: "tasks.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file),
  });
  await page.getByRole("button", { name: "Import" }).click();
  const errors = page.getByRole("list", { name: "Import errors" });
  await expect(errors.getByRole("listitem")).toHaveCount(2);
  await expect(errors.getByRole("listitem").nth(0)).toContainText(
    "line 2: skill: unknown skill 'juggling'",
  );
  await expect(errors.getByRole("listitem").nth(1)).toContainText("line 3: not valid JSON");
  await expect(page.getByText("Nothing was imported: 2 problems to fix.")).toBeVisible();
  expect(await importedTasks()).toBe(0);
});

test("a valid file imports, and the import page has no serious accessibility violations", async ({
  page,
}) => {
  await page.goto(`/runs/${target.slug}/import`);
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel("Tasks file").setInputFiles({
    name: "tasks.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from([taskLine(11), taskLine(12), taskLine(11)].join("\n")),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("Imported 2 tasks. 1 duplicates were skipped.")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Skipped duplicates" }).getByRole("listitem"),
  ).toHaveText(["line 3: same task as line 1"]);
  expect(await importedTasks()).toBe(2);
  expect(
    await count(
      `SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1 AND origin = 'IMPORTED'`,
      [target.runId],
    ),
  ).toBe(2);
});

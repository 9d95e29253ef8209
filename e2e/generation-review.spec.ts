import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { reviewModeTaskId } from "./support/pages";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

type TaskState = { reviewStatus: string; reviewNote: string | null };

async function taskState(id: number): Promise<TaskState> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<TaskState>(
      `SELECT "reviewStatus", "reviewNote" FROM "Task" WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  });
}

/** Generation 1's task counts by review and validation status, straight from Postgres. */
async function generationCounts(slug: string) {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{
      total: number;
      valid: number;
      pendingValid: number;
      approved: number;
    }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE t."validationStatus" = 'VALID')::int AS valid,
              count(*) FILTER (WHERE t."validationStatus" = 'VALID' AND t."reviewStatus" = 'PENDING')::int AS "pendingValid",
              count(*) FILTER (WHERE t."reviewStatus" = 'APPROVED')::int AS approved
         FROM "Task" t JOIN "Generation" g ON g.id = t."generationId" JOIN "Run" r ON r.id = g."runId"
        WHERE r.slug = $1 AND g.index = 1`,
      [slug],
    );
    return rows[0]!;
  });
}

let slug = "";

test("a manual-review round waits for people; the generation page filters its tasks in the URL", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const name = `Review e2e ${randomBytes(3).toString("hex")}`;
  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Tasks per round").fill("12");
  await form.getByLabel("Group size (G)").fill("4");
  await form.getByLabel("Synthesis budget").fill("16");
  await form.getByLabel("Review").selectOption("manual");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page).toHaveURL(/\/runs\/review-e2e-[0-9a-f-]+$/);
  slug = new URL(page.url()).pathname.split("/").at(-1)!;

  const launch = page.getByRole("button", { name: "Launch round" });
  await expect(launch).toBeEnabled({ timeout: 90_000 });
  await launch.click();
  await expect(page.getByRole("button", { name: "Close review" })).toBeVisible({
    timeout: 120_000,
  });

  const counts = await generationCounts(slug);
  // The review tests below decide on five tasks one way or another, then approve the rest.
  expect(counts.valid).toBeGreaterThan(5);
  await page.goto(`/runs/${slug}/generations/1`);
  await expect(page.getByRole("heading", { level: 1, name: "Generation 1" })).toBeVisible();
  await expect(page.getByText("AWAITING REVIEW", { exact: true })).toBeVisible();
  const summary = page.getByLabel("Task counts");
  await expect(summary).toContainText(`${counts.total} tasks born in this generation`);
  await expect(summary).toContainText(`${counts.total} pending`);
  const table = page.getByRole("table", { name: "Tasks of generation 1" });
  await expect(table.getByRole("row")).toHaveCount(Math.min(counts.total, 50) + 1);

  // Filter: only valid tasks. The state is in the URL, and a reload reproduces the view.
  const filters = page.getByRole("search", { name: "Filter tasks" });
  await filters
    .getByRole("group", { name: "Validation" })
    .getByLabel("valid", { exact: true })
    .check();
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]validation=VALID(&|$)/);
  await expect(summary).toContainText(`${counts.valid} match the filter`);
  await page.reload();
  await expect(summary).toContainText(`${counts.valid} match the filter`);
  await expect(table.getByRole("row")).toHaveCount(Math.min(counts.valid, 50) + 1);

  await expectNoSeriousA11yViolations(page);
});

test("keyboard review mode: approve, undo, reject with a note, help overlay", async ({ page }) => {
  await page.goto(`/runs/${slug}/generations/1?validation=VALID`);
  await page.getByRole("button", { name: "Review", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Review mode: generation 1" });
  await expect(dialog).toBeVisible();

  // ? toggles the help overlay listing the keys.
  await page.keyboard.press("?");
  const help = dialog.getByRole("region", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("undo the last decision");
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("?");
  await expect(help).toBeHidden();

  // j/k move between tasks.
  const first = await reviewModeTaskId(page);
  await page.keyboard.press("j");
  await expect.poll(() => reviewModeTaskId(page)).not.toBe(first);
  await page.keyboard.press("k");
  await expect.poll(() => reviewModeTaskId(page)).toBe(first);

  // a approves the task shown, and moves on.
  await page.keyboard.press("a");
  await expect(dialog.getByRole("status")).toHaveText("1 task approved.");
  await expect.poll(async () => (await taskState(first)).reviewStatus).toBe("APPROVED");
  await expect.poll(() => reviewModeTaskId(page)).not.toBe(first);

  // u restores what it was before.
  await page.keyboard.press("u");
  await expect(dialog.getByRole("status")).toHaveText("1 task reset to pending.");
  await expect.poll(() => taskState(first)).toEqual({ reviewStatus: "PENDING", reviewNote: null });
  expect(await reviewModeTaskId(page)).toBe(first);
  await page.keyboard.press("a");
  await expect(dialog.getByRole("status")).toHaveText("1 task approved.");
  await expect.poll(async () => (await taskState(first)).reviewStatus).toBe("APPROVED");

  // r asks for a note; typing it (letters a, r, u, j included) triggers no shortcut; Enter confirms.
  const rejected = await reviewModeTaskId(page);
  await page.keyboard.press("r");
  const note = dialog.getByLabel(/Why reject\?/);
  await expect(note).toBeFocused();
  await page.keyboard.type("ambiguous: a rubric is required");
  expect(await reviewModeTaskId(page)).toBe(rejected);
  await page.keyboard.press("Enter");
  await expect
    .poll(() => taskState(rejected))
    .toEqual({
      reviewStatus: "REJECTED",
      reviewNote: "ambiguous: a rubric is required",
    });

  // The UI confirms after the server answered (the database may be seen first): until then
  // Esc would only leave the note field.
  await expect(dialog.getByRole("status")).toHaveText("1 task rejected.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // The table behind shows the decisions after the refresh.
  const row = page
    .getByRole("table", { name: "Tasks of generation 1" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: String(rejected), exact: true }) });
  await expect(row).toContainText("rejected");
  await expect(row).toContainText("ambiguous: a rubric is required");
});

test("select rows and reject the selection with a note", async ({ page }) => {
  await page.goto(`/runs/${slug}/generations/1?validation=VALID&review=PENDING`);
  const table = page.getByRole("table", { name: "Tasks of generation 1" });
  const rows = table.getByRole("row");
  const ids = [
    Number(await rows.nth(1).getByRole("rowheader").textContent()),
    Number(await rows.nth(2).getByRole("rowheader").textContent()),
  ];
  for (const id of ids) await table.getByRole("checkbox", { name: `Select task ${id}` }).check();
  await expect(page.getByText("2 selected tasks")).toBeVisible();
  await page.getByRole("button", { name: "Reject selected" }).click();
  const confirm = page.getByRole("dialog", { name: "Reject the 2 tasks you selected?" });
  // A rejection needs a reason: the dialog refuses to submit without one.
  await confirm.getByRole("button", { name: "Reject 2 tasks" }).click();
  await expect(confirm).toBeVisible();
  expect((await taskState(ids[0]!)).reviewStatus).toBe("PENDING");
  await confirm.getByLabel(/Why reject\?/).fill("duplicates of seed tasks");
  await confirm.getByRole("button", { name: "Reject 2 tasks" }).click();
  await expect(page.getByRole("status").filter({ hasText: "rejected" })).toHaveText(
    "2 tasks rejected.",
  );
  for (const id of ids) {
    expect(await taskState(id)).toEqual({
      reviewStatus: "REJECTED",
      reviewNote: "duplicates of seed tasks",
    });
  }
  // The refreshed page (filtered on pending) no longer lists them.
  await expect(table.getByRole("rowheader", { name: String(ids[0]), exact: true })).toHaveCount(0);
});

test("approve everything matching a filter after a confirmation that states the count", async ({
  page,
}) => {
  const before = await generationCounts(slug);
  expect(before.pendingValid).toBeGreaterThan(0);
  await page.goto(`/runs/${slug}/generations/1?validation=VALID&review=PENDING`);
  const summary = page.getByLabel("Task counts");
  await expect(summary).toContainText(`${before.pendingValid} match the filter`);

  await page.getByRole("button", { name: `Approve all ${before.pendingValid} matching` }).click();
  const confirm = page.getByRole("dialog", {
    name: `Approve ${before.pendingValid} task${before.pendingValid === 1 ? "" : "s"} matching this filter?`,
  });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole("button", { name: /^Approve \d+ tasks?$/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "approved" })).toHaveText(
    `${before.pendingValid} task${before.pendingValid === 1 ? "" : "s"} approved.`,
  );
  const after = await generationCounts(slug);
  expect(after.pendingValid).toBe(0);
  expect(after.approved).toBe(before.approved + before.pendingValid);
  // Rows and counts refresh: nothing matches "pending" any more.
  await expect(page.getByRole("heading", { name: "No task matches this filter" })).toBeVisible();
});

test("a decision after the review closed elsewhere says so and changes nothing", async ({
  page,
  browser,
}) => {
  await page.goto(`/runs/${slug}/generations/1?validation=VALID`);
  const table = page.getByRole("table", { name: "Tasks of generation 1" });
  const firstRow = table.getByRole("row").nth(1);
  const id = Number(await firstRow.getByRole("rowheader").textContent());
  const stateBefore = await taskState(id);

  // Someone else closes the review from the run page, in a context of their own.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(`/runs/${slug}`);
  await otherPage.getByRole("button", { name: "Close review" }).click();
  await expect(otherPage.getByRole("button", { name: "Close review" })).toBeHidden();
  await other.close();

  await firstRow.getByRole("button", { name: "Reject" }).click();
  const confirm = page.getByRole("dialog", { name: "Reject this task?" });
  await confirm.getByLabel(/Why reject\?/).fill("too late");
  await confirm.getByRole("button", { name: "Reject 1 task" }).click();
  await expect(page.getByText(/Review of generation 1 was closed/)).toBeVisible();
  expect(await taskState(id)).toEqual(stateBefore);

  // Reloaded, the page offers no review controls and says why.
  await page.reload();
  await expect(page.getByText(/Review of generation 1 was closed on/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Review", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: /^Select task/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test("a malformed or unknown generation is a not-found page", async ({ page }) => {
  for (const n of ["x", "1.5", "-1", "99"]) {
    await page.goto(`/runs/${slug}/generations/${n}`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
});

test("pages of a bigger generation: next, last, and review mode preloads the next page", async ({
  page,
}) => {
  // A run written straight into Postgres: 120 tasks waiting for review in generation 1 and an
  // empty generation 2, so pages and preloading have something to cross.
  const bigSlug = `paging-e2e-${randomBytes(3).toString("hex")}`;
  await withE2eDatabase(async (client) => {
    const run = await client.query<{ id: number }>(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
      [bigSlug],
    );
    const gens = await client.query<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status) VALUES ($1, 0, 'DONE'), ($1, 1, 'AWAITING_REVIEW'),
         ($1, 2, 'DONE') RETURNING id`,
      [run.rows[0]!.id],
    );
    await client.query(
      `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
         "validationStatus", instruction, spec, fingerprint)
       SELECT $1, 'k' || n, $2, 'files', 1, n / 200.0, 'SYNTHESIZED', 'VALID', 'Paged task ' || n, '{}', 'f' || n
         FROM generate_series(1, 120) n`,
      [run.rows[0]!.id, gens.rows[1]!.id],
    );
  });
  const table = page.getByRole("table", { name: "Tasks of generation 1" });
  const ids = async () =>
    (await table.getByRole("rowheader").allTextContents()).map((text) => Number(text));

  await page.goto(`/runs/${bigSlug}/generations/1?sort=oldest`);
  // allTextContents does not wait: wait for the streamed table first.
  await expect(table.getByRole("rowheader")).toHaveCount(50);
  const first = await ids();
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect.poll(async () => (await ids())[0]).toBe(first[49]! + 1);
  const second = await ids();
  await page.getByRole("link", { name: "Last page" }).click();
  await expect(page).toHaveURL(/[?&]before=end/);
  await expect.poll(async () => (await ids()).at(-1)).toBe(first[0]! + 119);
  const last = await ids();
  expect(last).toHaveLength(50);
  expect(new Set([...first, ...second, ...last.slice(-20)]).size).toBe(120);
  await expect(page.getByText("Last page", { exact: true })).toBeVisible(); // no link: at the end

  // Review mode, from the first page: the next page is fetched before the reviewer gets there.
  await page.goto(`/runs/${bigSlug}/generations/1?sort=oldest`);
  const pageRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(`/api/runs/${bigSlug}/generations/1/tasks`)) {
      pageRequests.push(request.url());
    }
  });
  await page.getByRole("button", { name: "Review", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Review mode: generation 1" });
  await expect(dialog.getByText("1 of 50+ loaded")).toBeVisible();
  for (let step = 1; step < 46; step += 1) await page.keyboard.press("j");
  await expect(dialog.getByText(/^46 of 100\+ loaded$/)).toBeVisible();
  expect(pageRequests).toHaveLength(1);
  expect(pageRequests[0]).toMatch(/sort=oldest.*after=/);
  for (let step = 46; step < 60; step += 1) await page.keyboard.press("j");
  await expect(dialog.getByRole("article", { name: `Task ${first[0]! + 59}` })).toBeVisible();

  // A generation without tasks says so.
  await page.goto(`/runs/${bigSlug}/generations/2`);
  await expect(page.getByRole("heading", { name: "No tasks in this generation" })).toBeVisible();
});

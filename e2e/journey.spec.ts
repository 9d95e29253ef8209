import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { cellsOf, chartData, percent } from "./support/charts";
import { generationRow, reviewModeTaskId, SERVER_ACTION_MARKERS } from "./support/pages";
import { withE2eDatabase } from "./support/database";

/**
 * One researcher's morning, end to end, in one browser: create a run → launch a round → watch
 * it → read the charts → review generation 1 (keyboard, note, bulk by filter) → follow a task's
 * lineage to the trajectory behind it → share the run read-only → revoke the link. The feature
 * specs test each step in depth; this one proves the steps connect.
 */

type Row = Record<string, unknown>;

async function query<T extends Row>(sql: string, params: unknown[]): Promise<T[]> {
  return withE2eDatabase(async (client) => (await client.query<T>(sql, params)).rows);
}

async function reviewOf(taskId: number) {
  const [row] = await query<{ reviewStatus: string; reviewNote: string | null }>(
    `SELECT "reviewStatus", "reviewNote" FROM "Task" WHERE id = $1`,
    [taskId],
  );
  return row!;
}

test("create, launch, watch, chart, review, trace lineage, share and revoke", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const name = `Journey ${randomBytes(3).toString("hex")}`;

  // Create a run whose new tasks wait for a person.
  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Mode").selectOption("coevolve");
  await form.getByLabel("Tasks per round").fill("16");
  await form.getByLabel("Group size (G)").fill("4");
  await form.getByLabel("Synthesis budget").fill("24");
  await form.getByLabel("Review").selectOption("manual");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const slug = new URL(page.url()).pathname.split("/").at(-1)!;

  // Launch a round and watch its stages fill until it waits for review.
  const launch = page.getByRole("button", { name: "Launch round" });
  await expect(launch).toBeEnabled({ timeout: 90_000 });
  await launch.click();
  await expect(page.getByRole("progressbar", { name: "Rollout progress" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Close review" })).toBeVisible({
    timeout: 150_000,
  });
  await page.reload();

  // The charts draw the statistics tables' numbers.
  const heldout = await query<{ skill: string; successes: number; attempts: number }>(
    `SELECT s.skill, sum(s.successes)::int AS successes, sum(s.attempts)::int AS attempts
       FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
       JOIN "Run" r ON r.id = g."runId"
      WHERE r.slug = $1 AND g.index = 1 AND s.split = 'HELDOUT'
      GROUP BY s.skill ORDER BY s.skill`,
    [slug],
  );
  expect(heldout.length).toBeGreaterThan(1);
  const success = await chartData(page, "Success rate by skill");
  expect(await cellsOf(success, "1")).toEqual(heldout.map((r) => percent(r.successes, r.attempts)));
  const [mix] = await query<{ f: number; b: number; r: number; pending: number }>(
    `SELECT sum("signalForgetting")::int AS f, sum("signalBoundary")::int AS b,
            sum("signalRare")::int AS r, sum(pending)::int AS pending
       FROM "GenerationDataStat" d JOIN "Generation" g ON g.id = d."generationId"
       JOIN "Run" r ON r.id = g."runId" WHERE r.slug = $1 AND g.index = 1`,
    [slug],
  );
  expect(mix!.pending).toBeGreaterThan(0);
  const signals = await chartData(page, "Signal mix");
  expect((await cellsOf(signals, "1")).slice(0, 3)).toEqual([mix!.f, mix!.b, mix!.r].map(String));

  // Open generation 1 from the timeline and filter it to valid, pending tasks.
  await page
    .getByRole("table", { name: "Generations, newest first" })
    .getByRole("link", { name: "1", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Generation 1" })).toBeVisible();
  const filters = page.getByRole("search", { name: "Filter tasks" });
  await filters
    .getByRole("group", { name: "Validation" })
    .getByLabel("valid", { exact: true })
    .check();
  await filters
    .getByRole("group", { name: "Review" })
    .getByLabel("pending", { exact: true })
    .check();
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/validation=VALID/);
  await expect(page).toHaveURL(/review=PENDING/);

  // Approve one by keyboard, reject the next with a note.
  await page.getByRole("button", { name: "Review", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Review mode: generation 1" });
  const approved = await reviewModeTaskId(page);
  await page.keyboard.press("a");
  await expect(dialog.getByRole("status")).toHaveText("1 task approved.");
  await expect.poll(async () => (await reviewOf(approved)).reviewStatus).toBe("APPROVED");
  // Review mode moves on to the next task after a decision.
  await expect.poll(() => reviewModeTaskId(page)).not.toBe(approved);
  const rejected = await reviewModeTaskId(page);
  await page.keyboard.press("r");
  await expect(dialog.getByLabel(/Why reject\?/)).toBeFocused();
  await page.keyboard.type("instruction names a contact that does not exist");
  await page.keyboard.press("Enter");
  await expect
    .poll(() => reviewOf(rejected))
    .toEqual({
      reviewStatus: "REJECTED",
      reviewNote: "instruction names a contact that does not exist",
    });
  await expect(dialog.getByRole("status")).toHaveText("1 task rejected.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Bulk-approve everything still matching the filter, after a confirmation with the count.
  const [{ pending } = { pending: 0 }] = await query<{ pending: number }>(
    `SELECT count(*)::int AS pending FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
       JOIN "Run" r ON r.id = g."runId"
      WHERE r.slug = $1 AND g.index = 1 AND t."validationStatus" = 'VALID' AND t."reviewStatus" = 'PENDING'`,
    [slug],
  );
  expect(pending).toBeGreaterThan(0);
  await page.getByRole("button", { name: `Approve all ${pending} matching` }).click();
  const confirm = page.getByRole("dialog", {
    name: `Approve ${pending} task${pending === 1 ? "" : "s"} matching this filter?`,
  });
  await confirm.getByRole("button", { name: /^Approve \d+ tasks?$/ }).click();
  await expect(page.getByRole("heading", { name: "No task matches this filter" })).toBeVisible();
  const [after] = await query<{ pending: number; approved: number }>(
    `SELECT count(*) FILTER (WHERE t."reviewStatus" = 'PENDING' AND t."validationStatus" = 'VALID')::int AS pending,
            count(*) FILTER (WHERE t."reviewStatus" = 'APPROVED')::int AS approved
       FROM "Task" t JOIN "Generation" g ON g.id = t."generationId" JOIN "Run" r ON r.id = g."runId"
      WHERE r.slug = $1 AND g.index = 1`,
    [slug],
  );
  expect(after).toEqual({ pending: 0, approved: pending + 1 });

  // Share the run read-only and open the link as a colleague without an account.
  await page.goto(`/runs/${slug}`);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const share = page.getByRole("dialog", { name: `Share “${name}”` });
  await share.getByLabel("Label (optional)").fill("Journey colleague");
  await share.getByRole("button", { name: "Create link" }).click();
  const shareUrl = await share.getByLabel("New share link (shown only once)").inputValue();
  expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);

  const colleague = await browser.newContext();
  const shared = await colleague.newPage();
  await shared.goto(shareUrl);
  await expect(shared.getByRole("heading", { level: 1, name })).toBeVisible();
  const noActions = async () => {
    for (const control of ["Launch round", "Approve", "Reject", "Review", "Share", "New run"]) {
      await expect(shared.getByRole("button", { name: control, exact: true })).toHaveCount(0);
    }
    // A filter is a plain GET search form; nothing else may post anywhere.
    await expect(shared.locator("form:not([role=search])")).toHaveCount(0);
    // Checkboxes that only pick chart series or filters are fine; row selection is not.
    await expect(shared.getByRole("checkbox", { name: /^Select task/ })).toHaveCount(0);
  };
  // While generation 1 still waits for review, the shared view of it offers no review at all.
  await shared.goto(`${shareUrl}/generations/1`);
  await expect(shared.getByText("AWAITING REVIEW", { exact: true })).toBeVisible();
  await noActions();
  await expect(shared.getByRole("button", { name: /^Approve all|^Export$/ })).toHaveCount(0);
  await shared.goto(shareUrl);

  // Close the review: the round finishes.
  await page.goto(`/runs/${slug}`);
  await page.getByRole("button", { name: "Close review" }).click();
  await expect(generationRow(page, 1).getByRole("cell").first()).toHaveText("DONE", {
    timeout: 60_000,
  });

  // Follow an approved task's lineage to the trajectory that triggered it.
  const [lineage] = await query<{ id: number; parent: string; trigger: string; kind: string }>(
    `SELECT t.id, p.instruction AS parent, t."triggerTrajectoryId"::text AS trigger,
            t."signalKind" AS kind
       FROM "Task" t JOIN "Task" p ON p.id = t."parentTaskId"
       JOIN "Generation" g ON g.id = t."generationId" JOIN "Run" r ON r.id = g."runId"
      WHERE r.slug = $1 AND g.index = 1 AND t."reviewStatus" = 'APPROVED'
        AND t."triggerTrajectoryId" IS NOT NULL
      ORDER BY t.id LIMIT 1`,
    [slug],
  );
  expect(lineage, "an approved task of generation 1 was synthesized from a parent").toBeDefined();
  const lineageTask = lineage!.id;
  await page.goto(`/runs/${slug}/tasks/${lineageTask}`);
  const chain = page.getByRole("list", { name: "Lineage, oldest first" });
  await expect(chain).toContainText(lineage!.parent);
  await expect(chain).toContainText(lineage!.kind.toLowerCase());
  await chain
    .getByRole("link", { name: new RegExp(`^Trigger trajectory #${lineage!.trigger} `) })
    .click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Trajectory ${lineage!.trigger}` }),
  ).toBeVisible();
  const [trajectory] = await query<{ stepCount: number }>(
    `SELECT "stepCount" FROM "Trajectory" WHERE id = $1`,
    [lineage!.trigger],
  );
  await expect(
    page.getByRole("list", { name: "Steps" }).getByRole("heading", { level: 3 }),
  ).toHaveCount(trajectory!.stepCount);

  await noActions();
  await expectNoSeriousA11yViolations(shared);
  // The shared generation, task and trajectory pages show the same data, still without actions.
  await shared
    .getByRole("table", { name: "Generations, newest first" })
    .getByRole("link", { name: "1", exact: true })
    .click();
  await expect(shared.getByRole("heading", { level: 1, name: "Generation 1" })).toBeVisible();
  await noActions();
  await shared.goto(`${shareUrl}/tasks/${lineageTask}`);
  await expect(shared.getByRole("list", { name: "Lineage, oldest first" })).toContainText(
    lineage!.parent,
  );
  await noActions();
  await shared.goto(`${shareUrl}/trajectories/${lineage!.trigger}`);
  await expect(
    shared.getByRole("heading", { level: 1, name: `Trajectory ${lineage!.trigger}` }),
  ).toBeVisible();
  // Every shared page, including the GRPO group, is served without a server action bound to it.
  const [group] = await query<{ taskId: number }>(
    `SELECT tr."taskId" FROM "Trajectory" tr WHERE tr.id = $1`,
    [lineage!.trigger],
  );
  for (const path of [
    "",
    "/generations/1",
    `/generations/0/groups/${group!.taskId}`,
    `/tasks/${lineageTask}`,
    `/trajectories/${lineage!.trigger}`,
  ]) {
    const response = await colleague.request.get(`${shareUrl}${path}`);
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).not.toMatch(SERVER_ACTION_MARKERS);
  }
  for (const link of await shared.getByRole("link").all()) {
    const href = await link.getAttribute("href");
    if (href?.startsWith("/")) expect(href.startsWith(new URL(shareUrl).pathname)).toBe(true);
  }
  // A crafted write against the shared URL is refused before it reaches any action.
  const generationsBefore = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "Generation" g JOIN "Run" r ON r.id = g."runId" WHERE r.slug = $1`,
    [slug],
  );
  const crafted = await shared.request.post(shareUrl, {
    headers: { "Next-Action": "0".repeat(40), "Content-Type": "text/plain" },
    data: "[]",
  });
  expect(crafted.status()).toBe(403);
  expect(
    await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Generation" g JOIN "Run" r ON r.id = g."runId" WHERE r.slug = $1`,
      [slug],
    ),
  ).toEqual(generationsBefore);

  // Revoke it: the colleague's link stops working.
  await page.goto(`/runs/${slug}`);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await share.getByRole("button", { name: "Revoke Journey colleague" }).click();
  await share.getByRole("button", { name: "Revoke Journey colleague now" }).click();
  await expect(
    share
      .getByRole("row", { name: /Journey colleague/ })
      .getByRole("cell")
      .nth(2),
  ).toHaveText("revoked");
  const refused = await shared.goto(shareUrl);
  expect(refused?.status()).toBe(404);
  await expect(
    shared.getByRole("heading", { level: 1, name: "This link is not valid" }),
  ).toBeVisible();
  await expect(shared.getByText(name)).toHaveCount(0);
  await colleague.close();
});

import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { alignRollouts, divergenceText, groupRewardStats } from "../lib/trajectories/divergence";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { generationRow } from "./support/pages";
import { withE2eDatabase } from "./support/database";

// Builds on a run it creates itself: one co-evolve round, small enough to finish in seconds.
test.describe.configure({ mode: "serial" });

const GROUP_SIZE = 4;

type Picked = {
  slug: string;
  runId: number;
  taskId: number;
  parentInstruction: string;
  signalKind: string;
  triggerId: string;
};

let picked: Picked;

async function expectNotFound(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
}

test("a co-evolve round produces tasks with lineage to browse", async ({ page }) => {
  test.setTimeout(240_000);
  const name = `Lineage e2e ${randomBytes(3).toString("hex")}`;
  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Mode").selectOption("coevolve");
  await form.getByLabel("Tasks per round").fill("12");
  await form.getByLabel("Group size (G)").fill(String(GROUP_SIZE));
  await form.getByLabel("Synthesis budget").fill("12");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await expect(generationRow(page, 0).getByRole("cell").first()).toHaveText("DONE", {
    timeout: 90_000,
  });
  await page.getByRole("button", { name: "Launch round" }).click();
  await expect(generationRow(page, 1).getByRole("cell").first()).toHaveText("DONE", {
    timeout: 150_000,
  });

  picked = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<Picked>(
      `SELECT r.slug, r.id AS "runId", t.id AS "taskId", p.instruction AS "parentInstruction",
              s.kind AS "signalKind", t."triggerTrajectoryId"::text AS "triggerId"
         FROM "Task" t
         JOIN "Run" r ON r.id = t."runId"
         JOIN "Generation" g ON g.id = t."generationId"
         JOIN "Task" p ON p.id = t."parentTaskId"
         JOIN "Signal" s ON s.id = t."signalId"
        WHERE r.name = $1 AND g.index = 1 AND t.origin = 'SYNTHESIZED'
          AND t."triggerTrajectoryId" IS NOT NULL
        ORDER BY t.id LIMIT 1`,
      [name],
    );
    return rows[0]!;
  });
  expect(picked, "the round synthesized a task with a parent, signal and trigger").toBeTruthy();
});

test("the task page shows the lineage with its signal and trigger trajectory", async ({ page }) => {
  await page.goto(`/runs/${picked.slug}/tasks/${picked.taskId}`);
  const lineage = page.getByRole("list", { name: "Lineage, oldest first" });
  await expect(lineage).toContainText(picked.parentInstruction);
  await expect(lineage).toContainText(`${picked.signalKind.toLowerCase()} signal`);
  const trigger = lineage.getByRole("link", {
    name: new RegExp(`^Trigger trajectory #${picked.triggerId} `),
  });
  await expect(trigger).toHaveAttribute(
    "href",
    `/runs/${picked.slug}/trajectories/${picked.triggerId}`,
  );

  // The parent's own trajectories are listed on its page, grouped by generation and purpose.
  await expect(
    page.getByRole("heading", { name: "Trajectories across generations" }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The parent's page lists its trajectories across generations, each linked, with its group.
  const parentTrajectories = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
        WHERE t.id = (SELECT "parentTaskId" FROM "Task" WHERE id = $1)`,
      [picked.taskId],
    );
    return rows[0]!.count;
  });
  await lineage.getByRole("link", { name: picked.parentInstruction, exact: true }).click();
  const table = page.getByRole("table", { name: /^Trajectories of this task/ });
  await expect(table.getByRole("link", { name: /^Trajectory \d+: generation / })).toHaveCount(
    Math.min(parentTrajectories, 50),
  );
  await expect(
    table.getByRole("link", { name: "Compare group: Generation 0, train, pool slot 1" }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goBack();
  await trigger.click();
  await expect(
    page.getByRole("heading", { level: 1, name: `Trajectory ${picked.triggerId}` }),
  ).toBeVisible();
});

test("the trajectory viewer renders the stored steps and the group shows where rollouts diverge", async ({
  page,
}) => {
  const stored = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{
      reward: number;
      steps: { tool: string }[];
      generationId: number;
      taskId: number;
      sampleIndex: number;
    }>(
      `SELECT reward, steps, "generationId", "taskId", "sampleIndex" FROM "Trajectory" WHERE id = $1`,
      [picked.triggerId],
    );
    return rows[0]!;
  });

  // The group: the trigger's GRPO group (samples k·G … k·G+G−1 of its task in its generation).
  const slot = Math.floor(stored.sampleIndex / GROUP_SIZE);
  const group = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{
      reward: number;
      sampleIndex: number;
      steps: { tool: string }[];
    }>(
      `SELECT reward, "sampleIndex", steps FROM "Trajectory"
        WHERE "generationId" = $1 AND "taskId" = $2 AND purpose = 'TRAIN'
          AND "sampleIndex" BETWEEN $3 AND $4
        ORDER BY "sampleIndex"`,
      [stored.generationId, stored.taskId, slot * GROUP_SIZE, slot * GROUP_SIZE + GROUP_SIZE - 1],
    );
    return rows;
  });
  const stats = groupRewardStats(group.map((r) => r.reward));
  const position = group.findIndex((r) => r.sampleIndex === stored.sampleIndex);

  await page.goto(`/runs/${picked.slug}/trajectories/${picked.triggerId}`);
  const steps = page.getByRole("list", { name: "Steps" });
  await expect(steps.getByRole("heading", { level: 3 })).toHaveText(
    stored.steps.map((step, i) => `Step ${i + 1}: ${step.tool}`),
  );
  const facts = page.getByLabel("Trajectory facts");
  await expect(facts.getByText("Reward", { exact: true }).locator("..")).toContainText(
    stored.reward.toFixed(2),
  );
  await expect(facts.getByText("Steps", { exact: true }).locator("..")).toContainText(
    String(stored.steps.length),
  );
  // Builtin runs store no advantage: the viewer shows the one GRPO computed from the group.
  const advantage = stats.advantages[position]!;
  await expect(facts.getByText("Advantage", { exact: true }).locator("..")).toContainText(
    `${advantage > 0 ? "+" : ""}${advantage.toFixed(2)}`,
  );
  await expectNoSeriousA11yViolations(page);

  const expected = divergenceText(alignRollouts(group.map((r) => r.steps as never)), group.length);

  // Keyboard: j and k step through the group's samples (there and back), g opens the group.
  const next = page.getByRole("link", { name: "Next sample →" });
  const hasNext = (await next.count()) > 0;
  const neighbour = hasNext ? next : page.getByRole("link", { name: "← Previous sample" });
  const neighbourHref = await neighbour.getAttribute("href");
  expect(neighbourHref, "a group of 4 has a neighbour for every sample").toMatch(
    /\/trajectories\/\d+$/,
  );
  await page.keyboard.press(hasNext ? "j" : "k");
  await expect(page).toHaveURL(new RegExp(`${neighbourHref}$`));
  const neighbourId = neighbourHref!.split("/").at(-1)!;
  await expect(
    page.getByRole("heading", { level: 1, name: `Trajectory ${neighbourId}` }),
  ).toBeVisible();
  await page.keyboard.press(hasNext ? "k" : "j");
  await expect(page).toHaveURL(new RegExp(`/trajectories/${picked.triggerId}$`));
  await expect(
    page.getByRole("heading", { level: 1, name: `Trajectory ${picked.triggerId}` }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Compare the group" })).toHaveAttribute(
    "aria-keyshortcuts",
    "g",
  );
  await page.keyboard.press("g");
  await expect(page.getByRole("heading", { level: 1, name: /^Group: task / })).toBeVisible();
  await expect(page.getByText(expected, { exact: true })).toBeVisible();
  const grid = page.getByRole("table", { name: /Rollouts side by side/ });
  await expect(grid.getByRole("columnheader", { name: /^Sample \d+$/ })).toHaveCount(group.length);
  await expect(page.getByText("Mean reward").locator("..")).toContainText(stats.mean.toFixed(3));
  await expect(page.getByText("Reward std").locator("..")).toContainText(stats.std.toFixed(3));
  await expect(page.getByText("Gradient", { exact: true }).locator("..")).toContainText(
    stats.isFlat ? "no gradient from this group" : "informative",
  );
  await expectNoSeriousA11yViolations(page);
});

test("ids of another run, and malformed ids, are not found", async ({ page }) => {
  const other = await withE2eDatabase(async (client) => {
    const slug = `other-${randomBytes(4).toString("hex")}`;
    const { rows: runs } = await client.query<{ id: number }>(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
      [slug],
    );
    const { rows: generations } = await client.query<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status, stage)
       VALUES ($1, 0, 'DONE', 'DONE') RETURNING id`,
      [runs[0]!.id],
    );
    const { rows: tasks } = await client.query<{ id: number }>(
      `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty",
         origin, instruction, spec, fingerprint)
       VALUES ($1, 'k', $2, 'files', 1, 0.5, 'SEED', 'Another run''s task', '{}', 'fp')
       RETURNING id`,
      [runs[0]!.id, generations[0]!.id],
    );
    return { slug, taskId: tasks[0]!.id };
  });

  // The other run's task through this run's path, and this run's rows through the other run's.
  await expectNotFound(page, `/runs/${picked.slug}/tasks/${other.taskId}`);
  await expectNotFound(page, `/runs/${other.slug}/tasks/${picked.taskId}`);
  await expectNotFound(page, `/runs/${other.slug}/trajectories/${picked.triggerId}`);
  await expectNotFound(page, `/runs/${other.slug}/generations/0/groups/${picked.taskId}`);
  // The other run's own task is fine at its own address.
  await page.goto(`/runs/${other.slug}/tasks/${other.taskId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Another run's task");

  for (const path of [
    `/runs/${picked.slug}/tasks/abc`,
    `/runs/${picked.slug}/tasks/99999999999`,
    `/runs/${picked.slug}/trajectories/1e3`,
    `/runs/${picked.slug}/trajectories/99999999999999999999999`,
    `/runs/${picked.slug}/generations/x/groups/${picked.taskId}`,
    `/runs/${picked.slug}/generations/0/groups/${picked.taskId}?slot=99`,
  ]) {
    await expectNotFound(page, path);
  }
});

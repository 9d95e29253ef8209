import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import type { Client } from "pg";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { cellsOf, chartData, columnsOf } from "./support/charts";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

const suffix = randomBytes(3).toString("hex");
const group = `trio-${suffix}`;

/** [generation][skill][level] = [successes, attempts]; trainEnvSteps per generation. */
type RunSpec = {
  slug: string;
  name: string;
  mode: "COEVOLVE" | "STATIC" | "UNIFORM";
  heldout: Record<string, Record<number, [number, number]>>[];
  trainEnvSteps: number[];
};

// Small, hand-checkable statistics: what a finished trio of rounds stores, for exact assertions.
const RUNS: RunSpec[] = [
  {
    slug: `co-${suffix}`,
    name: `Co-evolve ${suffix}`,
    mode: "COEVOLVE",
    heldout: [
      { pay: { 1: [1, 4], 2: [0, 4] }, lookup: { 1: [2, 4], 2: [1, 4] } },
      { pay: { 1: [3, 4], 2: [1, 4] }, lookup: { 1: [4, 4], 2: [2, 4] } },
    ],
    trainEnvSteps: [0, 400],
  },
  {
    slug: `st-${suffix}`,
    name: `Static ${suffix}`,
    mode: "STATIC",
    heldout: [
      { pay: { 1: [1, 4], 2: [0, 4] }, lookup: { 1: [2, 4], 2: [1, 4] } },
      { pay: { 1: [2, 4], 2: [0, 4] }, lookup: { 1: [3, 4], 2: [1, 4] } },
    ],
    trainEnvSteps: [0, 380],
  },
  {
    slug: `un-${suffix}`,
    name: `Uniform ${suffix}`,
    mode: "UNIFORM",
    heldout: [{ pay: { 1: [1, 4], 2: [0, 4] }, lookup: { 1: [2, 4], 2: [1, 4] } }],
    trainEnvSteps: [0],
  },
];

async function insertRun(client: Client, run: RunSpec) {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "compareGroup", "updatedAt")
     VALUES ($1, $2, $3::"RunMode", 'toolworld', 'builtin', 1, '{}', $4, now()) RETURNING id`,
    [run.slug, run.name, run.mode, group],
  );
  for (const [index, skills] of run.heldout.entries()) {
    const generation = await client.query<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status, stage, "trainRollouts", "trainEnvSteps")
       VALUES ($1, $2, 'DONE', 'DONE', $3, $4) RETURNING id`,
      [rows[0]!.id, index, index === 0 ? 0 : 48, run.trainEnvSteps[index]],
    );
    for (const [skill, levels] of Object.entries(skills)) {
      for (const [level, [successes, attempts]] of Object.entries(levels)) {
        await client.query(
          `INSERT INTO "SkillStat" ("generationId", split, skill, level, attempts, successes)
           VALUES ($1, 'HELDOUT', $2, $3, $4, $5)`,
          [generation.rows[0]!.id, skill, Number(level), attempts, successes],
        );
      }
    }
  }
}

test.beforeAll(async () => {
  await withE2eDatabase(async (client) => {
    for (const run of RUNS) await insertRun(client, run);
  });
});

const label = (run: RunSpec) =>
  `${run.name} (${{ COEVOLVE: "co-evolve", STATIC: "static", UNIFORM: "uniform" }[run.mode]})`;

test("runs launched together compare in one click from the runs list", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: new RegExp(`^Compare .*\\(${group}\\)$`) }).click();
  await expect(page).toHaveURL(`/compare?runs=${RUNS.map((r) => r.slug).join(",")}`);
  await expect(page.getByRole("heading", { level: 1, name: "Compare runs" })).toBeVisible();

  const curves = await chartData(page, "Held-out success by generation");
  expect(await columnsOf(curves)).toEqual(["Generation", ...RUNS.map(label)]);
  // Generation 0: every run 4 of 16. Generation 1: 10/16 and 6/16; the uniform run has none yet.
  expect(await cellsOf(curves, "0")).toEqual(["25.0%", "25.0%", "25.0%"]);
  expect(await cellsOf(curves, "1")).toEqual(["62.5%", "37.5%", "—"]);

  const bySkill = await chartData(page, "Latest held-out success by skill");
  expect(await cellsOf(bySkill, "lookup")).toEqual(["75.0%", "50.0%", "37.5%"]);
  expect(await cellsOf(bySkill, "pay")).toEqual(["50.0%", "25.0%", "12.5%"]);
  const byLevel = await chartData(page, "Latest held-out success by level");
  expect(await cellsOf(byLevel, "1")).toEqual(["87.5%", "62.5%", "37.5%"]);
  expect(await cellsOf(byLevel, "2")).toEqual(["37.5%", "12.5%", "12.5%"]);

  const budget = await chartData(page, "Training spent");
  expect(await cellsOf(budget, label(RUNS[0]!))).toEqual(["2", "48", "400"]);
  expect(await cellsOf(budget, label(RUNS[1]!))).toEqual(["2", "48", "380"]);
  expect(await cellsOf(budget, label(RUNS[2]!))).toEqual(["1", "0", "0"]);

  await expectNoSeriousA11yViolations(page);
});

test("the picker writes the compared runs to the URL, and a reload keeps them", async ({
  page,
}) => {
  await page.goto(`/compare?runs=${RUNS[0]!.slug}`);
  const picker = page.getByRole("group", { name: "Runs to compare" });
  await expect(
    picker.getByRole("checkbox", { name: new RegExp(`^${RUNS[0]!.name}`) }),
  ).toBeChecked();
  await picker.getByRole("checkbox", { name: new RegExp(`^${RUNS[2]!.name}`) }).check();
  await expect(page).toHaveURL(`/compare?runs=${RUNS[0]!.slug},${RUNS[2]!.slug}`);
  await page.reload();
  const curves = await chartData(page, "Held-out success by generation");
  expect(await columnsOf(curves)).toEqual(["Generation", label(RUNS[0]!), label(RUNS[2]!)]);
  await picker.getByRole("checkbox", { name: new RegExp(`^${RUNS[0]!.name}`) }).uncheck();
  await expect(page).toHaveURL(`/compare?runs=${RUNS[2]!.slug}`);
  await picker.getByRole("checkbox", { name: new RegExp(`^${RUNS[2]!.name}`) }).uncheck();
  await expect(page).toHaveURL(/\/compare$/);
  await expect(page.getByRole("heading", { name: "No runs selected" })).toBeVisible();
});

test("unknown runs are named and left out; none at all is a helpful empty state", async ({
  page,
}) => {
  await page.goto(`/compare?runs=${RUNS[1]!.slug},no-such-run,Bad%20Slug!`);
  // Next's route announcer is an alert too: pick ours by what it says.
  const alert = page.getByRole("alert").filter({ hasText: "No runs are called" });
  await expect(alert).toContainText("No runs are called no-such-run, Bad Slug!");
  const curves = await chartData(page, "Held-out success by generation");
  expect(await columnsOf(curves)).toEqual(["Generation", label(RUNS[1]!)]);
  await alert.getByRole("link", { name: "Remove from the link" }).click();
  await expect(page).toHaveURL(`/compare?runs=${RUNS[1]!.slug}`);
  await expect(alert).toHaveCount(0);

  await page.goto("/compare");
  await expect(page.getByRole("heading", { name: "No runs selected" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("a run's header links to the comparison of its group", async ({ page }) => {
  await page.goto(`/runs/${RUNS[1]!.slug}`);
  await page.getByRole("link", { name: "Compare with its group (3)" }).click();
  await expect(page).toHaveURL(`/compare?runs=${RUNS.map((r) => r.slug).join(",")}`);
});

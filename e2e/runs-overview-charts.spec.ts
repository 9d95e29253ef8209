import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { cellsOf, chartData, columnsOf, percent } from "./support/charts";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

type SkillRate = { generation: number; skill: string; successes: number; attempts: number };

/** Per generation × skill, levels pooled: what the success chart must show. */
async function skillRates(runSlug: string, split: "TRAIN" | "HELDOUT"): Promise<SkillRate[]> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<SkillRate>(
      `SELECT g.index AS generation, s.skill, sum(s.successes)::int AS successes,
              sum(s.attempts)::int AS attempts
         FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
         JOIN "Run" r ON r.id = g."runId"
        WHERE r.slug = $1 AND s.split = $2::"Split"
        GROUP BY g.index, s.skill ORDER BY g.index, s.skill`,
      [runSlug, split],
    );
    return rows;
  });
}

let slug = "";
let runName = "";

test("a fresh run without results shows an empty state for every chart", async ({ page }) => {
  const fresh = `fresh-${randomBytes(3).toString("hex")}`;
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now())`,
      [fresh],
    ),
  );
  await page.goto(`/runs/${fresh}`);
  for (const [chart, empty] of [
    ["Success rate by skill", "No held-out results yet"],
    ["Held-out success: skill × generation", "No held-out results yet"],
    ["Difficulty drift of new tasks", "No new tasks yet"],
    ["Signal mix", "No synthesized tasks yet"],
    ["Review outcomes", "Nothing reviewed yet"],
  ]) {
    const region = page.getByRole("region", { name: chart, exact: true });
    await expect(region.getByRole("heading", { name: empty })).toBeVisible();
  }
});

test("forgetting is marked in the heatmap and the curation band is named", async ({ page }) => {
  const marked = `marked-${randomBytes(3).toString("hex")}`;
  await withE2eDatabase(async (client) => {
    const run = await client.query<{ id: number }>(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, $2, now()) RETURNING id`,
      [marked, JSON.stringify({ review: { mode: "auto-band", band: [0.2, 0.8] } })],
    );
    // pay: 80% → 60% (forgetting, 20 points) → 75% (5 below the best 80%: not marked);
    // lookup: 50% → 45% (5 points: noise, not marked).
    const heldout = [
      { pay: [8, 10], lookup: [5, 10] },
      { pay: [6, 10], lookup: [9, 20] },
      { pay: [15, 20], lookup: [5, 10] },
    ];
    for (const [index, skills] of heldout.entries()) {
      const generation = await client.query<{ id: number }>(
        `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, $2, 'DONE', 'DONE') RETURNING id`,
        [run.rows[0]!.id, index],
      );
      const id = generation.rows[0]!.id;
      for (const [skill, [successes, attempts]] of Object.entries(skills)) {
        await client.query(
          `INSERT INTO "SkillStat" ("generationId", split, skill, level, attempts, successes)
           VALUES ($1, 'HELDOUT', $2, 1, $3, $4)`,
          [id, skill, attempts, successes],
        );
      }
      await client.query(
        `INSERT INTO "GenerationDataStat" ("generationId", skill, candidates, valid, approved,
            "signalBoundary", "estimatedDifficultyQ", "measuredDifficultyQ")
         VALUES ($1, 'pay', 6, 5, 5, $2, $3, $4)`,
        [
          id,
          index === 0 ? 0 : 5,
          [0.1, 0.2, 0.3 + index / 10, 0.5, 0.9],
          index < 2 ? [0.2, 0.3, 0.4, 0.6, 0.7] : [],
        ],
      );
    }
  });

  await page.goto(`/runs/${marked}`);
  const heatmap = page.getByRole("table", { name: /Held-out success by skill \(rows\)/ });
  await expect(
    heatmap.getByRole("cell", {
      name: "pay, generation 1: 60.0% of 10 episodes; forgetting, 20.0 points below the earlier best 80.0%",
    }),
  ).toHaveText("▼60.0%");
  await expect(
    heatmap.getByRole("cell", {
      name: "pay, generation 2: 75.0% of 20 episodes; forgetting, 5.0 points below the earlier best 80.0%",
    }),
  ).toHaveCount(0);
  await expect(
    heatmap.getByRole("cell", { name: "lookup, generation 1: 45.0% of 20 episodes", exact: true }),
  ).toHaveText("45.0%");
  await expect(
    page.getByText("Forgetting: at least 10 points below the best of an earlier generation"),
  ).toBeVisible();

  const drift = page.getByRole("region", { name: "Difficulty drift of new tasks", exact: true });
  await expect(drift).toContainText("The shaded band is the curation band (0.20–0.80).");
  const table = await chartData(page, "Difficulty drift of new tasks");
  expect(await cellsOf(table, "2")).toEqual([
    "5",
    "0.10",
    "0.20",
    "0.50",
    "0.50",
    "0.90",
    "—",
    "—",
    "—",
  ]);
  expect(await cellsOf(table, "1")).toEqual([
    "5",
    "0.10",
    "0.20",
    "0.40",
    "0.50",
    "0.90",
    "0.30",
    "0.40",
    "0.60",
  ]);
  await expectNoSeriousA11yViolations(page);
});

test("an unknown run answers 404", async ({ request, page }) => {
  const response = await request.get("/runs/does-not-exist");
  expect(response.status()).toBe(404);
  const malformed = await request.get("/runs/Not_A_Slug!");
  expect(malformed.status()).toBe(404);
  await page.goto("/runs/does-not-exist");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("after a round, the charts show the statistics tables' numbers", async ({ page }) => {
  test.setTimeout(240_000);
  const name = `Charts e2e ${randomBytes(3).toString("hex")}`;
  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Tasks per round").fill("12");
  await form.getByLabel("Group size (G)").fill("4");
  await form.getByLabel("Synthesis budget").fill("12");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  slug = new URL(page.url()).pathname.split("/").at(-1)!;
  runName = name;

  const launch = page.getByRole("button", { name: "Launch round" });
  await expect(launch).toBeEnabled({ timeout: 90_000 });
  await launch.click();
  const generation1 = page
    .getByRole("table", { name: "Generations, newest first" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "1", exact: true }) });
  await expect(generation1.getByRole("cell").first()).toHaveText("DONE", { timeout: 150_000 });
  // The page refreshes its server parts when the round ends; a reload makes it certain.
  await page.reload();

  // Held-out success by skill: every generation × skill the database has, to the decimal.
  const heldout = await skillRates(slug, "HELDOUT");
  const skills = [...new Set(heldout.map((r) => r.skill))].sort();
  expect(skills.length).toBeGreaterThan(1);
  expect(new Set(heldout.map((r) => r.generation))).toEqual(new Set([0, 1]));
  const success = await chartData(page, "Success rate by skill");
  await expect(success).toHaveAccessibleName("Held-out success by skill and generation");
  expect(await columnsOf(success)).toEqual(["Generation", ...skills]);
  for (const generation of [0, 1]) {
    const expected = skills.map((skill) => {
      const r = heldout.find((h) => h.generation === generation && h.skill === skill)!;
      return percent(r.successes, r.attempts);
    });
    expect(await cellsOf(success, String(generation))).toEqual(expected);
  }

  // The heatmap says the same numbers per cell, in words.
  const heatmap = page.getByRole("table", { name: /Held-out success by skill \(rows\)/ });
  const first = heldout.find((r) => r.generation === 1)!;
  await expect(
    heatmap.getByRole("cell", {
      name: new RegExp(
        `^${first.skill}, generation 1: ${percent(first.successes, first.attempts).replace(".", "\\.")} of ${first.attempts} episodes`,
      ),
    }),
  ).toBeVisible();

  // Signal mix and review outcomes of generation 1 are the data statistics' sums.
  const mix = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<Record<string, number>>(
      `SELECT sum("signalForgetting")::int AS f, sum("signalBoundary")::int AS b,
              sum("signalRare")::int AS r, sum("signalUniform")::int AS u,
              sum(approved)::int AS approved, sum(rejected)::int AS rejected, sum(pending)::int AS pending
         FROM "GenerationDataStat" d JOIN "Generation" g ON g.id = d."generationId"
         JOIN "Run" r ON r.id = g."runId" WHERE r.slug = $1 AND g.index = 1`,
      [slug],
    );
    return rows[0]!;
  });
  expect(mix.f! + mix.b! + mix.r!).toBeGreaterThan(0);
  const signals = await chartData(page, "Signal mix");
  expect(await cellsOf(signals, "1")).toEqual([mix.f, mix.b, mix.r, mix.u].map(String));
  const reviews = await chartData(page, "Review outcomes");
  expect(await cellsOf(reviews, "1")).toEqual(
    [mix.approved, mix.rejected, mix.pending].map(String),
  );

  // Difficulty: the seed pool (generation 0) and the new tasks of generation 1 both have a row.
  const drift = await chartData(page, "Difficulty drift of new tasks");
  const driftRows = await drift.getByRole("rowheader").allInnerTexts();
  expect(driftRows).toEqual(["0", "1"]);
  const gen0 = await cellsOf(drift, "0");
  expect(gen0[0]).toMatch(/^\d+$/); // tasks
  expect(gen0.slice(1, 6).every((v) => /^\d\.\d\d$/.test(v))).toBe(true);
  expect(gen0.slice(6).every((v) => /^\d\.\d\d$/.test(v))).toBe(true); // measured in round 1

  await expectNoSeriousA11yViolations(page);
});

test("the split and picked skills live in the URL and survive a reload", async ({ page }) => {
  expect(slug, "the run made by the previous test").not.toBe("");
  await page.goto(`/runs/${slug}`);
  await page.getByRole("radio", { name: "Training" }).check();
  await expect(page).toHaveURL(new RegExp(`/runs/${slug}\\?split=train$`));
  const train = await skillRates(slug, "TRAIN");
  expect(train.length).toBeGreaterThan(0);
  const trainSkills = [...new Set(train.map((r) => r.skill))].sort();
  let table = await chartData(page, "Success rate by skill");
  await expect(table).toHaveAccessibleName("Training success by skill and generation");
  // Training success of generation g is its pool's rollouts, recorded by round g+1: only g = 0.
  expect(await table.getByRole("rowheader").allInnerTexts()).toEqual(["0"]);
  expect(await cellsOf(table, "0")).toEqual(
    trainSkills.map((skill) => {
      const r = train.find((t) => t.skill === skill)!;
      return percent(r.successes, r.attempts);
    }),
  );

  await page.getByRole("radio", { name: "Held-out" }).check();
  await expect(page).toHaveURL(new RegExp(`/runs/${slug}$`));
  const heldoutSkills = [
    ...new Set((await skillRates(slug, "HELDOUT")).map((r) => r.skill)),
  ].sort();
  const [dropped, kept] = [heldoutSkills[0]!, heldoutSkills.slice(1)];
  await page.getByRole("checkbox", { name: dropped, exact: true }).uncheck();
  await expect(page).toHaveURL(new RegExp(`\\?skills=${kept.join(",")}$`));
  await page.getByRole("radio", { name: "Training" }).check();
  await expect(page).toHaveURL(new RegExp(`\\?split=train&skills=${kept.join(",")}$`));

  await page.reload();
  await expect(page.getByRole("radio", { name: "Training" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: dropped, exact: true })).not.toBeChecked();
  table = await chartData(page, "Success rate by skill");
  expect(await columnsOf(table)).toEqual([
    "Generation",
    ...trainSkills.filter((s) => s !== dropped),
  ]);

  await page.getByRole("button", { name: "All skills" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${slug}\\?split=train$`));
  await expectNoSeriousA11yViolations(page);
});

test("the runs list shows the latest held-out success and a described trend", async ({ page }) => {
  expect(slug, "the run made by the previous tests").not.toBe("");
  const overall = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ generation: number; s: number; a: number }>(
      `SELECT g.index AS generation, sum(s.successes)::int AS s, sum(s.attempts)::int AS a
         FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
         JOIN "Run" r ON r.id = g."runId"
        WHERE r.slug = $1 AND s.split = 'HELDOUT' GROUP BY g.index ORDER BY g.index`,
      [slug],
    );
    return rows;
  });
  const [first, last] = [overall[0]!, overall.at(-1)!];
  await page.goto("/");
  const row = page
    .getByRole("table", { name: "All runs, newest first" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: runName, exact: true }) });
  await expect(row.getByRole("cell").nth(4)).toHaveText(percent(last.s, last.a));
  await expect(row.getByRole("img")).toHaveAccessibleName(
    new RegExp(
      `^Held-out success over 2 generations: ${percent(first.s, first.a).replace(".", "\\.")} to ${percent(last.s, last.a).replace(".", "\\.")}, `,
    ),
  );
  await expectNoSeriousA11yViolations(page);
});

import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { generationRow } from "./support/pages";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

const ROUND_STAGES = [
  "Rollout",
  "Train",
  "Evaluate",
  "Signals",
  "Synthesize",
  "Validate",
  "Curate",
  "Next pool",
];

async function countRunsNamed(name: string): Promise<number> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "Run" WHERE name = $1`,
      [name],
    );
    return rows[0]!.count;
  });
}

type ProgressSnapshot = {
  isRoundActive: boolean;
  generations: { index: number; status: string; stages: { stage: string; state: string }[] }[];
};

test("create a run with the New run form, launch a round and watch it to done", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const name = `Rounds e2e ${randomBytes(3).toString("hex")}`;
  const progressUrl = /\/api\/runs\/[^/]+\/progress/;
  let progressRequests = 0;
  const snapshots: ProgressSnapshot[] = [];
  page.on("request", (request) => {
    if (progressUrl.test(request.url())) progressRequests += 1;
  });
  page.on("response", async (response) => {
    if (progressUrl.test(response.url()) && response.ok()) {
      snapshots.push((await response.json().catch(() => null)) as ProgressSnapshot);
    }
  });
  // A controllable clock (it runs at normal speed until told otherwise): used at the end to let
  // ten seconds of page time pass at once and prove that nothing polls any more.
  await page.clock.install();

  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await expect(form).toBeVisible();
  // Defaults come from the run config schema.
  await expect(form.getByLabel("Group size (G)")).toHaveValue("8");
  await expect(form.getByLabel("Mode")).toHaveValue("coevolve");

  // Invalid: a group size that is not a whole number. The field says why; nothing is written.
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Tasks per round").fill("12");
  await form.getByLabel("Group size (G)").fill("4.5");
  await form.getByLabel("Synthesis budget").fill("12");
  await form.getByRole("button", { name: "Create run" }).click();
  const groupSize = form.getByLabel("Group size (G)");
  await expect(groupSize).toHaveAttribute("aria-invalid", "true");
  await expect(groupSize).toHaveAccessibleDescription(/Enter a whole number/);
  await expect(form.getByRole("status")).toHaveText("Some fields need attention.");
  await expect(form.getByLabel("Name")).toHaveValue(name); // what was typed is kept
  await expectNoSeriousA11yViolations(page);
  await expect(page).toHaveURL(/\/$/);
  expect(await countRunsNamed(name)).toBe(0);

  // Invalid: an empty name.
  await form.getByLabel("Name").fill("");
  await groupSize.fill("4");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.getByLabel("Name")).toHaveAccessibleDescription("Enter a name for the run");
  await expect(groupSize).toHaveAttribute("aria-invalid", "false");

  // Valid: a small config, so a round takes seconds.
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page).toHaveURL(/\/runs\/rounds-e2e-[0-9a-f]{6}-[0-9a-f]{6}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  expect(await countRunsNamed(name)).toBe(1);
  await expect(page.getByText("Group size (G)").locator("..")).toContainText("4");

  // Generation 0 (seed pool, held-out set, base policy) computes by itself.
  const generation0 = generationRow(page, 0);
  await expect(generation0.getByRole("cell").first()).toHaveText("DONE", { timeout: 90_000 });
  await expect(generation0.getByRole("cell").nth(2)).toHaveText(/^\d+\.\d%$/);

  const launch = page.getByRole("button", { name: "Launch round" });
  await expect(launch).toBeEnabled();
  await launch.click();

  // The panel follows the new round stage by stage, then every bar is full.
  await expect(page.getByRole("heading", { name: "Round: generation 1" })).toBeVisible();
  for (const stage of ROUND_STAGES) {
    await expect(page.getByRole("progressbar", { name: `${stage} progress` })).toBeVisible();
  }
  const generation1 = generationRow(page, 1);
  await expect(generation1.getByRole("cell").first()).toHaveText("DONE", { timeout: 120_000 });
  await expect(generation1.getByRole("cell").nth(2)).toHaveText(/^\d+\.\d%$/);
  for (const stage of ROUND_STAGES) {
    const bar = page.getByRole("progressbar", { name: `${stage} progress` });
    await expect(bar).toHaveAttribute("aria-valuetext", /^done/);
    const max = await bar.getAttribute("aria-valuemax");
    await expect(bar).toHaveAttribute("aria-valuenow", max!);
  }
  const rollout = page.getByRole("progressbar", { name: "Rollout progress" });
  await expect(rollout).toHaveAttribute("aria-valuemax", "2"); // 12 slots, 6 per batch
  await expect(page.getByRole("button", { name: "Launch round" })).toBeEnabled();

  // Progress advanced through polling: the page saw generation 1 unfinished, then finished.
  const round = snapshots.map((s) => s?.generations.find((g) => g.index === 1)).filter(Boolean);
  expect(round.some((g) => g!.status !== "DONE")).toBe(true);
  expect(round.at(-1)!.status).toBe("DONE");
  expect(snapshots.at(-1)!.isRoundActive).toBe(false);

  // Polling stopped: ten seconds of page time pass without a single progress request. Time moves
  // in steps, each followed by a network round trip from the page, so a poll that was due would
  // have been sent (and answered) before the count is read.
  const requestsWhenDone = progressRequests;
  for (let step = 0; step < 5; step += 1) {
    await page.clock.runFor(2_000);
    expect(await page.evaluate(async () => (await fetch("/api/health")).status)).toBe(200);
  }
  expect(progressRequests).toBe(requestsWhenDone);
  await expect(page.getByRole("button", { name: "Launch round" })).toBeEnabled();

  await expectNoSeriousA11yViolations(page);
});

test("the progress endpoint answers 404 for unknown runs and 422 for a bad query, never 500", async ({
  request,
}) => {
  const unknown = await request.get("/api/runs/no-such-run-000000/progress");
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ error: "Run not found" });

  const malformed = await request.get(`/api/runs/${encodeURIComponent("../../x y%")}/progress`);
  expect(malformed.status()).toBe(404);

  const slug = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ slug: string }>(
      `SELECT slug FROM "Run" ORDER BY id DESC LIMIT 1`,
    );
    return rows[0]!.slug;
  });
  const badLimit = await request.get(`/api/runs/${slug}/progress?limit=abc`);
  expect(badLimit.status()).toBe(422);
  const ok = await request.get(`/api/runs/${slug}/progress?limit=1`);
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as ProgressSnapshot;
  expect(body.generations).toHaveLength(1);
});

test("an unknown run page is a not-found page", async ({ page }) => {
  const response = await page.goto("/runs/no-such-run-000000");
  // The run is resolved in the segment's layout, above the loading boundaries: a real 404.
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.locator('head meta[name="robots"]').first()).toHaveAttribute(
    "content",
    /noindex/,
  );
});

import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { withE2eDatabase } from "./support/database";

test("New run → Advanced points a run at the dashboard's own OpenAI endpoint and ToolWorld over HTTP", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const name = `External e2e ${randomBytes(3).toString("hex")}`;
  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Tasks per round").fill("6");
  await form.getByLabel("Group size (G)").fill("2");
  await form.getByLabel("Synthesis budget").fill("6");

  await form.getByText("Advanced", { exact: true }).click();
  await form.getByLabel("Agent", { exact: true }).selectOption("openai");
  await form.getByLabel("Environment", { exact: true }).selectOption("http");
  await expect(form.getByLabel("Agent connection")).toHaveValue("");

  // Nothing typed: each endpoint field says what it needs and nothing is written.
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.getByLabel("Agent base URL")).toHaveAccessibleDescription(
    /agent\.baseUrl is required/,
  );
  await expect(form.getByLabel("Model")).toHaveAccessibleDescription(/agent\.model is required/);
  await expect(form.getByLabel("Environment base URL")).toHaveAccessibleDescription(
    /environment\.baseUrl is required/,
  );
  await expectNoSeriousA11yViolations(page);

  // A URL that is not http(s) is refused by the same schema the worker reads.
  await form.getByLabel("Agent base URL").fill("ftp://example.com/v1");
  await form.getByLabel("Model").fill("{run}@v{version}");
  await form.getByLabel("Environment base URL").fill(`${baseURL}/api/environments/toolworld`);
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.getByLabel("Agent base URL")).toHaveAccessibleDescription(
    /agent\.baseUrl must be an http\(s\) URL/,
  );
  await expect(form.getByLabel("Model")).toHaveAttribute("aria-invalid", "false");

  await form.getByLabel("Agent base URL").fill(`${baseURL}/api/openai/v1`);
  await form.getByLabel("Send task ids").check();
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  const agent = page.getByText("Agent", { exact: true }).locator("..");
  await expect(agent).toContainText(
    `OpenAI-compatible · {run}@v{version} at ${baseURL}/api/openai/v1`,
  );
  await expect(page.getByText("Environment", { exact: true }).locator("..")).toContainText(
    `HTTP · ${baseURL}/api/environments/toolworld`,
  );

  // Generation 0's held-out evaluation goes worker → this app's /api/openai/v1 and
  // /api/environments/toolworld over real HTTP.
  const generation0 = page
    .getByRole("table", { name: "Generations, newest first" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "0", exact: true }) });
  await expect(async () => {
    await page.reload();
    await expect(generation0).toContainText(/done/i, { timeout: 1_000 });
  }).toPass({ timeout: 180_000 });

  const stored = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{
      agent: string;
      environment: string;
      evals: number;
      failed: number;
      tokens: number;
    }>(
      `SELECT r.agent, r.environment,
              count(tr.id)::int AS evals,
              count(tr.id) FILTER (WHERE tr."endReason" = 'agent_error')::int AS failed,
              coalesce(sum(tr."promptTokens"), 0)::int AS tokens
         FROM "Run" r JOIN "Generation" g ON g."runId" = r.id
         LEFT JOIN "Trajectory" tr ON tr."generationId" = g.id AND tr.purpose = 'EVAL'
        WHERE r.name = $1 GROUP BY r.id`,
      [name],
    );
    return rows[0]!;
  });
  expect(stored).toMatchObject({ agent: "openai", environment: "http", failed: 0 });
  expect(stored.evals).toBeGreaterThan(0);
  expect(stored.tokens).toBeGreaterThan(0);
});

test("New run → Advanced chooses an LLM synthesizer: field errors inline, then its prompt on the config page", async ({
  page,
  baseURL,
}) => {
  const name = `LLM synthesizer e2e ${randomBytes(3).toString("hex")}`;
  const countRuns = () =>
    withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "Run" WHERE name = $1`,
        [name],
      );
      return rows[0]!.n;
    });

  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByText("Advanced", { exact: true }).click();
  await form.getByLabel("Synthesizer", { exact: true }).selectOption("llm");
  await expect(form.getByLabel("Synthesizer connection")).toHaveValue("");

  // A model but no base URL: the URL says what it needs, the typed model stays, nothing is written.
  await form.getByLabel("Synthesizer model").fill("synth-e2e");
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(form.getByLabel("Synthesizer base URL")).toHaveAccessibleDescription(
    /synthesizer\.baseUrl is required/,
  );
  await expect(form.getByLabel("Synthesizer base URL")).toBeFocused();
  await expect(form.getByLabel("Synthesizer model")).toHaveAttribute("aria-invalid", "false");
  await expect(form.getByLabel("Synthesizer model")).toHaveValue("synth-e2e");
  await expect(form.getByLabel("Synthesizer", { exact: true })).toHaveValue("llm");
  expect(await countRuns()).toBe(0);

  await expectNoSeriousA11yViolations(page);

  await form.getByLabel("Synthesizer base URL").fill(`${baseURL}/api/openai/v1`);
  await form.getByLabel("Send synthesis context").check();
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Synthesizer", { exact: true }).locator("..")).toContainText(
    `LLM · synth-e2e at ${baseURL}/api/openai/v1`,
  );
  expect(await countRuns()).toBe(1);

  await page.getByRole("link", { name: "Config", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Prompt template" })).not.toBeEmpty();

  const stored = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ synthesizer: unknown }>(
      `SELECT config->'synthesizer' AS synthesizer FROM "Run" WHERE name = $1`,
      [name],
    );
    return rows[0]!.synthesizer;
  });
  expect(stored).toMatchObject({
    kind: "llm",
    baseUrl: `${baseURL}/api/openai/v1`,
    model: "synth-e2e",
    sendContext: true,
  });
});

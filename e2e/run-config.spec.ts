import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DEFAULT_PROMPT_TEMPLATE } from "../lib/engine/synthesizers/llm-prompt";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { withE2eDatabase } from "./support/database";

async function createRun(synthesizer: unknown): Promise<string> {
  const slug = `config-${randomBytes(4).toString("hex")}`;
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $2, 'COEVOLVE', 'toolworld', 'builtin', 1, $3, now())`,
      [slug, `Config ${slug}`, JSON.stringify({ seed: 5, rounds: 3, synthesizer })],
    ),
  );
  return slug;
}

async function storedTemplate(slug: string): Promise<unknown> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ template: unknown }>(
      `SELECT config->'synthesizer'->'promptTemplate' AS template FROM "Run" WHERE slug = $1`,
      [slug],
    );
    return rows[0]!.template;
  });
}

test("the config page shows the run's settings and saves an edited prompt template", async ({
  page,
}) => {
  const slug = await createRun({
    kind: "llm",
    baseUrl: "http://localhost:8000/v1",
    model: "qwen2.5-7b",
    connection: "vllm-lab",
  });
  await page.goto(`/runs/${slug}/config`);
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  const settings = page.getByLabel("Run configuration");
  await expect(settings).toContainText('"rounds": 3');
  await expect(settings).toContainText('"model": "qwen2.5-7b"');
  await expect(settings).toContainText('"connection": "vllm-lab"');
  // Defaults filled in for what the stored config left out.
  await expect(settings).toContainText('"groupSize": 8');

  const template = page.getByLabel("Prompt template");
  await expect(template).toHaveValue(DEFAULT_PROMPT_TEMPLATE);
  await expectNoSeriousA11yViolations(page);

  // An unknown placeholder is refused with its name, and nothing is stored.
  await template.fill("Write a task about {{signal}} using {{tool_list}}.");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText(/unknown placeholder \{\{tool_list\}\}/)).toBeVisible();
  await expect(template).toHaveAttribute("aria-invalid", "true");
  await expect(template).toHaveValue("Write a task about {{signal}} using {{tool_list}}.");
  expect(await storedTemplate(slug)).toBeNull();

  const edited = "Write one task for this signal:\n{{signal}}\n\nTools:\n{{tools}}";
  await template.fill(edited);
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(
    page.getByText("Saved. Rounds launched from now on use this template."),
  ).toBeVisible();
  await expect.poll(() => storedTemplate(slug)).toBe(edited);

  await page.reload();
  await expect(page.getByLabel("Prompt template")).toHaveValue(edited);
  await expectNoSeriousA11yViolations(page);
});

test("a builtin-synthesizer run's config page says it has no prompt", async ({ page }) => {
  const slug = await createRun("builtin");
  await page.goto(`/runs/${slug}/config`);
  await expect(page.getByLabel("Run configuration")).toContainText('"synthesizer": "builtin"');
  await expect(page.getByText(/builtin rule-based synthesizer, which has no prompt/)).toBeVisible();
  await expect(page.getByLabel("Prompt template")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

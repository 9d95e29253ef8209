import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { withE2eDatabase } from "./support/database";

const suffix = randomBytes(3).toString("hex");
const API_KEY = `sk-e2e-PLAINTEXT-${suffix}-key-93Xf`;

test("add a connection: the key goes in once and only its hint comes back", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", (response) => {
    void response
      .text()
      .then((text) => bodies.push(text))
      .catch(() => {});
  });
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Connections" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a connection" });

  // Bad input: errors beside the fields, and what was typed stays.
  await form.getByLabel("Name").fill("has space");
  await form.getByLabel("Base URL").fill("ftp://example.com");
  await form.getByLabel("API key (optional)").fill(API_KEY);
  await form.getByRole("button", { name: "Save connection" }).click();
  await expect(form.getByText(/Use 1–63 letters, digits/)).toBeVisible();
  await expect(form.getByText("Enter an http:// or https:// URL")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("API key (optional)")).toHaveValue(API_KEY);
  await expect(form.getByLabel("API key (optional)")).toHaveAttribute("type", "password");

  const name = `vllm-${suffix}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Kind").selectOption("openai");
  await form.getByLabel("Base URL").fill("http://localhost:8000/v1");
  await form.getByLabel("Model (optional)").fill("qwen2.5-7b-instruct");
  await form.getByRole("button", { name: "Save connection" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved "${name}" with key …93Xf.`);
  await expect(form.getByLabel("API key (optional)")).toHaveValue("");

  const table = page.getByRole("table", { name: "Saved connections" });
  const row = table.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("…93Xf");
  await expect(row).toContainText("http://localhost:8000/v1");
  await expect(row).toContainText("Workspace");

  await page.reload();
  await expect(table.getByRole("row").filter({ hasText: name })).toContainText("…93Xf");
  expect(await page.content()).not.toContain(API_KEY);
  expect(bodies.length).toBeGreaterThan(2);
  for (const body of bodies) expect(body).not.toContain(API_KEY);
  const stored = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ text: string }>(
      `SELECT row_to_json(c)::text AS text FROM "Connection" c WHERE name = $1`,
      [name],
    );
    return rows[0]!.text;
  });
  expect(stored).not.toContain(API_KEY);

  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: `Delete connection ${name}` }).click();
  await expect(table.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});

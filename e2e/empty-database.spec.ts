import { expect, test } from "@playwright/test";

// Runs in its own Playwright project, before every other spec (playwright.config.ts): the specs
// share one database, and this is the only moment it is empty.
test("an empty database shows the honest empty state", async ({ page }) => {
  await page.goto("/");

  await expect(page.getByRole("heading", { name: "Runs", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No runs yet" })).toBeVisible();
  await expect(page.getByText("0 runs")).toBeVisible();
});

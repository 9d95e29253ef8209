import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

test("runs stored in Postgres are listed, newest first, with their generation count", async ({
  page,
}) => {
  const suffix = randomBytes(3).toString("hex");
  await withE2eDatabase(async (client) => {
    const older = await client.query<{ id: number }>(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "createdAt", "updatedAt")
       VALUES ($1, $2, 'STATIC', 'toolworld', 'builtin', 1, '{}', now() - interval '1 hour', now())
       RETURNING id`,
      [`older-${suffix}`, `Static baseline ${suffix}`],
    );
    await client.query(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
       VALUES ($1, $2, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now())`,
      [`newer-${suffix}`, `Co-evolve ${suffix}`],
    );
    await client.query(
      `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, 0, 'DONE', 'DONE'), ($1, 1, 'DONE', 'DONE')`,
      [older.rows[0]!.id],
    );
  });

  await page.goto("/");

  const table = page.getByRole("table", { name: "All runs, newest first" });
  const newer = table.getByRole("row").filter({ hasText: `Co-evolve ${suffix}` });
  const older = table.getByRole("row").filter({ hasText: `Static baseline ${suffix}` });
  await expect(newer).toContainText("co-evolve");
  await expect(older.getByRole("cell").nth(1)).toHaveText("static");
  await expect(older.getByRole("cell").nth(3)).toHaveText("2");
  const names = await table.getByRole("row").allInnerTexts();
  const newerIndex = names.findIndex((row) => row.includes(`Co-evolve ${suffix}`));
  const olderIndex = names.findIndex((row) => row.includes(`Static baseline ${suffix}`));
  expect(newerIndex).toBeLessThan(olderIndex);
});

import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { TaskFilterSchema } from "@/lib/validations/task-filter";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/db";
import { TASK_SORTS, listGenerationTasksSql, type PageRequest } from "./generation-tasks";

vi.mock("server-only", () => ({}));

/**
 * The plans of the table's pages on a database shaped like a real run: one generation holds most
 * of the tasks, others hold the rest, statistics are fresh. In that shape the planner is tempted to
 * walk the primary key backwards and filter out other generations (what the deepest page did once);
 * a scratch database keeps other tests' rows out of the statistics.
 */
let database: ScratchDatabase;
let pool: Pool;
let runId: number;
let deepestId: number;

beforeAll(async () => {
  database = await createScratchDatabase("plans");
  await migrate({ connectionString: database.url });
  pool = new Pool({ connectionString: database.url, max: 2 });
  const run = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ('plans', 'plans', 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
  );
  runId = run.rows[0]!.id;
  // Generations 0–4 with 3k tasks each, then generation 5 with 30k: ids grow with the generation.
  for (let index = 0; index <= 5; index += 1) {
    const gen = await pool.query<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status) VALUES ($1, $2, 'DONE') RETURNING id`,
      [runId, index],
    );
    await pool.query(
      `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
         instruction, spec, fingerprint)
       SELECT $1, $3 || '-' || n, $2, (ARRAY['files', 'math', 'search'])[1 + n % 3], 1,
              (n % 997) / 997.0, 'SYNTHESIZED', 'task ' || n, '{}', $3 || '-' || n
         FROM generate_series(1, $4::int) n`,
      [runId, gen.rows[0]!.id, `g${index}`, index === 5 ? 30_000 : 3_000],
    );
  }
  await pool.query(`VACUUM ANALYZE "Task"`);
  await pool.query(`ANALYZE "Generation"`);
  const deepest = await pool.query<{ id: number }>(
    `SELECT t.id FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
      WHERE g.index = 5 ORDER BY t.id DESC OFFSET 29949 LIMIT 1`,
  );
  deepestId = deepest.rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

async function planOf(text: string, values: unknown[]): Promise<string> {
  const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe("the generation table's plans on a run-shaped database", () => {
  const filter = TaskFilterSchema.parse({});
  const pages: [string, PageRequest | undefined][] = [
    ["first", undefined],
    ["deepest", undefined],
    ["last", { direction: "before", cursor: "end" }],
  ];

  it.each(TASK_SORTS.flatMap((sort) => pages.map(([name, page]) => [sort, name, page] as const)))(
    "sort %s, %s page: walks the generation's own index, no sort, no scan",
    async (sort, name, page) => {
      // A cursor deep into the generation, whatever the sort (its key is near the end of each).
      const deepKey = {
        newest: undefined,
        oldest: undefined,
        difficulty: 0.99,
        "-difficulty": 0.01,
        skill: "search",
      }[sort];
      const request: PageRequest | undefined =
        name === "deepest" ? { direction: "after", cursor: { id: deepestId, key: deepKey } } : page;
      const { text, values } = listGenerationTasksSql({
        runId,
        generationIndex: 5,
        filter,
        sort,
        page: request,
        limit: 50,
      });
      const plan = await planOf(text, values);
      expect(plan).toMatch(/Index (Only )?Scan( Backward)? using "Task_generationId_/);
      expect(plan).not.toMatch(/Task_pkey|Seq Scan on "Task"|\bSort\b/);
    },
  );
});

import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TaskFilterSchema, type TaskFilter } from "@/lib/validations/task-filter";
import { testDatabaseUrl } from "@/tests/support/db";
import {
  TASK_SORTS,
  countGenerationTasks,
  countMatchingSql,
  decodeCursor,
  encodeCursor,
  getGeneration,
  listGenerationSkills,
  listGenerationTasks,
  listGenerationTasksSql,
  type GenerationTaskRow,
  type TaskSort,
} from "./generation-tasks";

vi.mock("server-only", () => ({}));

let pool: Pool;
let runId: number;
type Fixture = {
  id: number;
  skill: string;
  estimatedDifficulty: number;
  reviewStatus: string;
  signalKind: string | null;
  origin: string;
  validationStatus: string;
  instruction: string;
};
let tasks: Fixture[];

const SKILLS = ["files", "search", "math", "calendar"];
const REVIEWS = ["PENDING", "APPROVED", "REJECTED"];
const SIGNALS = ["FORGETTING", "BOUNDARY", "RARE", null];

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  const slug = `gentasks-${randomUUID()}`;
  const run = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
    [slug],
  );
  runId = run.rows[0]!.id;
  const gens = await pool.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status) VALUES ($1, 0, 'DONE'), ($1, 1, 'AWAITING_REVIEW')
     RETURNING id`,
    [runId],
  );
  const [gen0, gen1] = gens.rows.map((row) => row.id);
  // Generation 0 has tasks too: none of them may leak into generation 1's pages or counts.
  await pool.query(
    `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
       instruction, spec, fingerprint)
     SELECT $1, 'seed-' || g, $2, 'files', 1, 0.5, 'SEED', 'seed task ' || g, '{}', 'seed-' || g
       FROM generate_series(1, 20) g`,
    [runId, gen0],
  );
  // 137 tasks: an odd number so no page size divides it; difficulties repeat (ties broken by id).
  const inserted = await pool.query<Fixture>(
    `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty", origin,
       "signalKind", "validationStatus", "reviewStatus", instruction, spec, fingerprint)
     SELECT $1, 'task-' || g, $2, ($3::text[])[1 + g % 4], 1 + g % 3, (g % 11) / 10.0,
            (CASE WHEN g % 9 = 0 THEN 'IMPORTED' ELSE 'SYNTHESIZED' END)::"TaskOrigin",
            ($4::text[])[1 + g % 4]::"SignalKind",
            (CASE WHEN g % 7 = 0 THEN 'INVALID' ELSE 'VALID' END)::"ValidationStatus",
            ($5::text[])[1 + g % 3]::"ReviewStatus",
            CASE WHEN g % 10 = 0 THEN 'Sum the 100% column_' || g ELSE 'Find file ' || g END,
            '{}', 'fp-' || g
       FROM generate_series(1, 137) g
     RETURNING id, skill, "estimatedDifficulty", "reviewStatus", "signalKind", origin,
               "validationStatus", instruction`,
    [runId, gen1, SKILLS, SIGNALS, REVIEWS],
  );
  tasks = inserted.rows;
});

afterAll(async () => {
  await pool.query(`DELETE FROM "Run" WHERE id = $1`, [runId]);
  await pool.end();
});

const filterOf = (input: Record<string, unknown>): TaskFilter => TaskFilterSchema.parse(input);
const NO_FILTER = filterOf({});

function expectedOrder(rows: Fixture[], sort: TaskSort): number[] {
  const sorted = [...rows].sort((a, b) => {
    switch (sort) {
      case "newest":
        return b.id - a.id;
      case "oldest":
        return a.id - b.id;
      case "difficulty":
        return a.estimatedDifficulty - b.estimatedDifficulty || a.id - b.id;
      case "-difficulty":
        return b.estimatedDifficulty - a.estimatedDifficulty || b.id - a.id;
      case "skill":
        return a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : a.id - b.id;
    }
  });
  return sorted.map((row) => row.id);
}

async function walkForward(sort: TaskSort, filter: TaskFilter, limit: number) {
  const pages: GenerationTaskRow[][] = [];
  let page = await listGenerationTasks({
    db: pool,
    runId,
    generationIndex: 1,
    filter,
    sort,
    limit,
  });
  expect(page.previous).toBeNull();
  pages.push(page.rows);
  while (page.next) {
    const cursor = decodeCursor(page.next, sort)!;
    page = await listGenerationTasks({
      db: pool,
      runId,
      generationIndex: 1,
      filter,
      sort,
      limit,
      page: { direction: "after", cursor },
    });
    expect(page.previous).not.toBeNull();
    pages.push(page.rows);
  }
  return pages;
}

describe("listGenerationTasks", () => {
  it.each(TASK_SORTS)(
    "walks every page of sort %s forward: disjoint, complete, in order",
    async (sort) => {
      const pages = await walkForward(sort, NO_FILTER, 10);
      expect(pages).toHaveLength(14);
      expect(pages.slice(0, -1).every((rows) => rows.length === 10)).toBe(true);
      const ids = pages.flat().map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expectedOrder(tasks, sort));
    },
  );

  it.each(TASK_SORTS)("walks sort %s backward from the last page to the first", async (sort) => {
    const limit = 10;
    const pages: number[][] = [];
    let page = await listGenerationTasks({
      db: pool,
      runId,
      generationIndex: 1,
      filter: NO_FILTER,
      sort,
      limit,
      page: { direction: "before", cursor: "end" },
    });
    expect(page.next).toBeNull();
    pages.unshift(page.rows.map((row) => row.id));
    while (page.previous) {
      page = await listGenerationTasks({
        db: pool,
        runId,
        generationIndex: 1,
        filter: NO_FILTER,
        sort,
        limit,
        page: { direction: "before", cursor: decodeCursor(page.previous, sort)! },
      });
      expect(page.next).not.toBeNull();
      pages.unshift(page.rows.map((row) => row.id));
    }
    // Walking backward anchors pages at the end: the first page holds the remainder.
    expect(pages.at(-1)).toHaveLength(10);
    expect(pages[0]).toHaveLength(137 % 10);
    expect(pages.flat()).toEqual(expectedOrder(tasks, sort));
  });

  it.each<[string, Record<string, unknown>, (task: Fixture) => boolean]>([
    ["skill", { skill: "math,files" }, (t) => t.skill === "math" || t.skill === "files"],
    ["review status", { review: "REJECTED" }, (t) => t.reviewStatus === "REJECTED"],
    [
      "signal incl. none",
      { signal: "RARE,NONE" },
      (t) => t.signalKind === "RARE" || t.signalKind === null,
    ],
    ["origin", { origin: "IMPORTED" }, (t) => t.origin === "IMPORTED"],
    ["validation", { validation: "INVALID" }, (t) => t.validationStatus === "INVALID"],
    [
      "difficulty range",
      { minDifficulty: "0.3", maxDifficulty: "0.5" },
      (t) => t.estimatedDifficulty >= 0.3 && t.estimatedDifficulty <= 0.5,
    ],
    // % is a literal here, not a wildcard.
    ["text search", { q: "100% COLUMN" }, (t) => t.instruction.includes("100% column")],
    [
      "several at once",
      { skill: "search", review: "PENDING,APPROVED", maxDifficulty: "0.6" },
      (t) => t.skill === "search" && t.reviewStatus !== "REJECTED" && t.estimatedDifficulty <= 0.6,
    ],
  ])("filters by %s, in pages and in the count", async (_name, input, keep) => {
    const filter = filterOf(input);
    const expected = tasks.filter(keep);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(tasks.length);
    const pages = await walkForward("difficulty", filter, 4);
    expect(pages.flat().map((row) => row.id)).toEqual(expectedOrder(expected, "difficulty"));
    const counts = await countGenerationTasks({ db: pool, runId, generationIndex: 1, filter });
    expect(counts).toMatchObject({ total: 137, matching: expected.length });
  });

  it("finds nothing (and no cursors) when the filter matches nothing", async () => {
    const page = await listGenerationTasks({
      db: pool,
      runId,
      generationIndex: 1,
      filter: filterOf({ q: "no such instruction" }),
      sort: "newest",
      limit: 10,
    });
    expect(page).toEqual({ rows: [], next: null, previous: null });
  });

  it("returns no rows for a generation the run does not have", async () => {
    const page = await listGenerationTasks({
      db: pool,
      runId,
      generationIndex: 9,
      filter: NO_FILTER,
      sort: "newest",
      limit: 10,
    });
    expect(page.rows).toEqual([]);
    expect(await getGeneration({ db: pool, runId, generationIndex: 9 })).toBeNull();
    expect(await getGeneration({ db: pool, runId, generationIndex: 1 })).toMatchObject({
      index: 1,
      status: "AWAITING_REVIEW",
    });
  });
});

describe("countGenerationTasks and listGenerationSkills", () => {
  it("counts the generation's tasks by review status, ignoring other generations", async () => {
    const counts = await countGenerationTasks({
      db: pool,
      runId,
      generationIndex: 1,
      filter: NO_FILTER,
    });
    const byStatus = (status: string) => tasks.filter((t) => t.reviewStatus === status).length;
    expect(counts).toEqual({
      total: 137,
      matching: 137,
      review: {
        PENDING: byStatus("PENDING"),
        APPROVED: byStatus("APPROVED"),
        REJECTED: byStatus("REJECTED"),
      },
    });
  });

  it("lists the distinct skills in order", async () => {
    expect(await listGenerationSkills({ db: pool, runId, generationIndex: 1 })).toEqual(
      [...SKILLS].sort(),
    );
    expect(await listGenerationSkills({ db: pool, runId, generationIndex: 0 })).toEqual(["files"]);
  });
});

describe("cursors", () => {
  it("round-trips and refuses cursors of another sort or shape", () => {
    expect(decodeCursor(encodeCursor({ id: 5, key: 0.25 }), "difficulty")).toEqual({
      id: 5,
      key: 0.25,
    });
    expect(decodeCursor(encodeCursor({ id: 5 }), "newest")).toEqual({ id: 5 });
    expect(decodeCursor(encodeCursor({ id: 5, key: "files" }), "difficulty")).toBeNull();
    expect(decodeCursor(encodeCursor({ id: 5 }), "skill")).toBeNull();
    expect(decodeCursor("not base64 json", "newest")).toBeNull();
    expect(decodeCursor(encodeCursor({ id: -1 }), "newest")).toBeNull();
  });
});

describe("plans", () => {
  it("walks an index for every sort, even on the deepest page, and never sorts the generation", async () => {
    // The fixture is small (and shares its table with other tests' rows), so the planner would
    // rather scan or bitmap-and-sort; price those out as a big generation would. A Sort that is
    // left then means no index gives the order: what this test exists to catch. The plan at real
    // scale is printed by `npm run bench:pages` on `npm run seed:large`'s run.
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      await client.query("SET LOCAL enable_bitmapscan = off");
      await client.query("SET LOCAL enable_sort = off");
      for (const sort of TASK_SORTS) {
        for (const page of [undefined, { direction: "before" as const, cursor: "end" as const }]) {
          const { text, values } = listGenerationTasksSql({
            runId,
            generationIndex: 1,
            filter: NO_FILTER,
            sort,
            page,
            limit: 50,
          });
          const plan = await explain(client, text, values);
          // Walks an index that starts with generationId (never the primary key, filtering).
          expect(plan, `${sort} ${page ? "last" : "first"} page`).toMatch(
            /Index (Only )?Scan( Backward)? using "Task_generationId_/,
          );
          expect(plan).not.toMatch(/Sort\b|Seq Scan/);
        }
      }
      const count = countMatchingSql({
        runId,
        generationIndex: 1,
        filter: filterOf({ review: "PENDING" }),
      });
      expect(await explain(client, count.text, count.values)).toMatch(/Index (Only )?Scan/);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });
});

async function explain(
  client: { query: Pool["query"] },
  text: string,
  values: unknown[],
): Promise<string> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

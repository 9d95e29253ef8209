/**
 * npm run bench:pages [-- --url http://127.0.0.1:3000] [-- --reps 7]
 *
 * Measures, for the run `npm run seed:large` wrote, the server time of the pages people open every
 * day: the run overview, the first and the deepest (last keyset) page of the big generation's task
 * table, and a filtered count — as real HTTP GETs of the rendered pages (full body read) against a
 * production server, and as direct calls of the query functions. Prints the median of several runs,
 * the deepest/first ratio against the target (≤ 2×), and EXPLAIN evidence that the table walks an
 * index. Without --url it starts `npm start`'s script on a free port (building if sources changed).
 * Exits 1 when a ratio misses the target or a plan sorts or scans the whole generation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { parseArgs } from "node:util";
import { Pool } from "pg";
import {
  countGenerationTasks,
  countMatchingSql,
  encodeCursor,
  listGenerationTasks,
  listGenerationTasksSql,
  type PageRequest,
  type TaskSort,
} from "@/lib/db/queries/generation-tasks";
import { isAppError } from "@/lib/errors";
import { TaskFilterSchema } from "@/lib/validations/task-filter";
import { openAppDatabase } from "./lib/cli-database";
import { BIG_GENERATION, LARGE_RUN_SLUG } from "./lib/large-run";

const TARGET_RATIO = 2;
const PAGE_SIZE = 50;

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    reps: { type: "string", default: "7" },
  },
});
const REPS = Number(args.reps);
const log = (line: string) => console.log(`[bench:pages] ${line}`);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm: plans cached, pages compiled, buffers hot
  const times: number[] = [];
  for (let i = 0; i < REPS; i += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const FILTER = TaskFilterSchema.parse({ skill: "email", review: "PENDING", signal: "BOUNDARY" });
const FILTER_QUERY = "skill=email&review=PENDING&signal=BOUNDARY";

async function main() {
  const database = await openAppDatabase(log);
  const pool = new Pool({ connectionString: database.url, max: 4 });
  let server: ChildProcess | null = null;
  let isFailed = false;
  try {
    const run = await pool.query<{ id: number }>(`SELECT id FROM "Run" WHERE slug = $1`, [
      LARGE_RUN_SLUG,
    ]);
    const runId = run.rows[0]?.id;
    if (!runId) {
      throw new Error(`run "${LARGE_RUN_SLUG}" does not exist: run \`npm run seed:large\` first.`);
    }
    const base = { runId, generationIndex: BIG_GENERATION, db: pool };
    const totals = await countGenerationTasks({ ...base, filter: TaskFilterSchema.parse({}) });
    log(`run ${LARGE_RUN_SLUG}: generation ${BIG_GENERATION} has ${totals.total} tasks`);

    // The deepest page as the table reaches it: the "after" cursor of the row before the last page.
    const deepest: Record<"newest" | "difficulty", PageRequest> = {
      newest: await lastPageRequest(pool, runId, "newest", totals.total),
      difficulty: await lastPageRequest(pool, runId, "difficulty", totals.total),
    };

    const rows: [string, number][] = [];
    const noFilter = TaskFilterSchema.parse({});
    const page = (sort: TaskSort, request?: PageRequest) => () =>
      listGenerationTasks({ ...base, filter: noFilter, sort, page: request, limit: PAGE_SIZE });
    const direct = {
      first: await measure(page("newest")),
      deepest: await measure(page("newest", deepest.newest)),
      firstByDifficulty: await measure(page("difficulty")),
      deepestByDifficulty: await measure(page("difficulty", deepest.difficulty)),
      filteredCount: await measure(() => countGenerationTasks({ ...base, filter: FILTER })),
    };
    rows.push(
      ["query: first page (newest)", direct.first],
      ["query: deepest page (newest)", direct.deepest],
      ["query: first page (easiest)", direct.firstByDifficulty],
      ["query: deepest page (easiest)", direct.deepestByDifficulty],
      [`query: counts with filter ${FILTER_QUERY}`, direct.filteredCount],
    );

    const baseUrl = args.url ?? (await startServer(database.url, (child) => (server = child)));
    const generationUrl = `${baseUrl}/runs/${LARGE_RUN_SLUG}/generations/${BIG_GENERATION}`;
    const cursorParam = (request: PageRequest) =>
      request.direction === "after" ? `after=${encodeCursor(request.cursor)}` : "";
    const http = {
      overview: await measure(() => get(`${baseUrl}/runs/${LARGE_RUN_SLUG}`)),
      first: await measure(() => get(generationUrl)),
      deepest: await measure(() => get(`${generationUrl}?${cursorParam(deepest.newest)}`)),
      deepestByDifficulty: await measure(() =>
        get(`${generationUrl}?sort=difficulty&${cursorParam(deepest.difficulty)}`),
      ),
      filtered: await measure(() => get(`${generationUrl}?${FILTER_QUERY}`)),
    };
    rows.push(
      ["http: run overview", http.overview],
      ["http: generation table, first page", http.first],
      ["http: generation table, deepest page", http.deepest],
      ["http: generation table, deepest page (easiest)", http.deepestByDifficulty],
      [`http: generation table filtered (${FILTER_QUERY})`, http.filtered],
    );

    console.log(
      `\nmedian of ${REPS} runs (after one warm-up), ${totals.total} tasks in the generation`,
    );
    for (const [label, ms] of rows)
      console.log(`  ${label.padEnd(62)} ${ms.toFixed(1).padStart(8)} ms`);
    const ratios: [string, number][] = [
      ["query deepest/first (newest)", direct.deepest / direct.first],
      ["query deepest/first (easiest)", direct.deepestByDifficulty / direct.firstByDifficulty],
      ["http deepest/first (newest)", http.deepest / http.first],
    ];
    console.log(`\nratios (target ≤ ${TARGET_RATIO}×)`);
    for (const [label, ratio] of ratios) {
      const ok = ratio <= TARGET_RATIO;
      if (!ok) isFailed = true;
      console.log(
        `  ${label.padEnd(62)} ${ratio.toFixed(2).padStart(7)}×  ${ok ? "ok" : "MISSED"}`,
      );
    }

    console.log("\nplans");
    const plans: [string, { text: string; values: unknown[] }][] = [
      [
        "deepest page (newest)",
        listGenerationTasksSql({
          ...base,
          filter: noFilter,
          sort: "newest",
          page: deepest.newest,
          limit: PAGE_SIZE,
        }),
      ],
      [
        "deepest page (easiest)",
        listGenerationTasksSql({
          ...base,
          filter: noFilter,
          sort: "difficulty",
          page: deepest.difficulty,
          limit: PAGE_SIZE,
        }),
      ],
      ["filtered count", countMatchingSql({ ...base, filter: FILTER })],
      ["review counts", reviewCountsSql(runId)],
    ];
    for (const [label, statement] of plans) {
      const { rows: planRows } = await pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
        statement.values,
      );
      const plan = planRows.map((row) => row["QUERY PLAN"]);
      const isPage = label.startsWith("deepest");
      const text = plan.join("\n");
      // The Generation lookup may scan its few rows; the Task table must be walked by an index.
      const isBad =
        /Seq Scan on "Task"/.test(text) ||
        (isPage && (/\bSort\b/.test(text) || !/using "Task_generationId_/.test(text)));
      if (isBad) isFailed = true;
      const verdict = isBad
        ? "MISSED (seq scan, sort, or not the generation's index)"
        : /Index Only Scan/.test(text)
          ? "index-only scan"
          : "index scan, no sort";
      console.log(`  ${label}: ${verdict}`);
      for (const line of plan) console.log(`    ${line}`);
    }
  } finally {
    if (server) await stopServer(server);
    await pool.end();
    await database.embedded?.stop();
  }
  if (isFailed) process.exit(1);
}

/** The statement countGenerationTasks groups review counts with (same text, for EXPLAIN). */
function reviewCountsSql(runId: number) {
  return {
    text: `SELECT t."reviewStatus", count(*)::int AS count FROM "Task" t
            WHERE t."generationId" = (SELECT g.id FROM "Generation" g WHERE g."runId" = $1 AND g.index = $2)
            GROUP BY t."reviewStatus"`,
    values: [runId, BIG_GENERATION],
  };
}

/** The "after" cursor that lands on the last page of `sort`, as following Next would. */
async function lastPageRequest(
  pool: Pool,
  runId: number,
  sort: "newest" | "difficulty",
  total: number,
): Promise<PageRequest> {
  const order = sort === "newest" ? `t.id DESC` : `t."estimatedDifficulty", t.id`;
  const { rows } = await pool.query<{ id: number; estimatedDifficulty: number }>(
    `SELECT t.id, t."estimatedDifficulty" FROM "Task" t
      JOIN "Generation" g ON g.id = t."generationId" AND g."runId" = $1 AND g.index = $2
      ORDER BY ${order} OFFSET $3 LIMIT 1`,
    [runId, BIG_GENERATION, Math.max(0, total - PAGE_SIZE - 1)],
  );
  const row = rows[0]!;
  return {
    direction: "after",
    cursor: sort === "newest" ? { id: row.id } : { id: row.id, key: row.estimatedDifficulty },
  };
}

async function get(url: string): Promise<void> {
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  if (!body.includes("</html>")) throw new Error(`GET ${url} returned an incomplete page`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `npm start`'s script on this database, like e2e does; resolves once /api/health answers. */
async function startServer(databaseUrl: string, keep: (child: ChildProcess) => void) {
  const port = await freePort();
  log(`starting the production server on port ${port} (builds first if sources changed)…`);
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), COEVOLVE_DEMO: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  keep(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return url;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the server did not become healthy within 10 minutes");
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

main().catch((error: unknown) => {
  console.error(
    `[bench:pages] ${isAppError(error) || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import type {
  GenerationStatus,
  ReviewStatus,
  SignalKind,
  Stage,
  TaskOrigin,
  ValidationStatus,
} from "@/lib/generated/prisma/enums";
import type { TaskFilter } from "@/lib/validations/task-filter";
import { taskFilterSql } from "./task-filter";

/**
 * Reads for the generation browser: one generation's tasks, filtered, sorted and keyset-paginated.
 * Every sort walks one of the Task indexes that start with generationId and end with the sort key
 * and id, so the last page costs what the first does (no OFFSET, no sort of the whole generation).
 */

type Queryable = Pick<Pool, "query">;

export const TASK_SORTS = ["newest", "oldest", "difficulty", "-difficulty", "skill"] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** The sort key column (besides id) and the direction of each sort. */
const SORT_PLAN: Record<TaskSort, { key: "id" | "difficulty" | "skill"; dir: "ASC" | "DESC" }> = {
  newest: { key: "id", dir: "DESC" },
  oldest: { key: "id", dir: "ASC" },
  difficulty: { key: "difficulty", dir: "ASC" },
  "-difficulty": { key: "difficulty", dir: "DESC" },
  skill: { key: "skill", dir: "ASC" },
};

const KEY_COLUMN = { difficulty: `t."estimatedDifficulty"`, skill: `t.skill` } as const;

/** A position in a sort: the last (or first) row of a page. Opaque in URLs. */
export type TaskCursor = { id: number; key?: number | string };

/** `after`: rows following the cursor; `before`: rows preceding it; `end`: the last page. */
export type PageRequest =
  { direction: "after"; cursor: TaskCursor } | { direction: "before"; cursor: TaskCursor | "end" };

export function encodeCursor(cursor: TaskCursor): string {
  return Buffer.from(
    JSON.stringify(cursor.key === undefined ? [cursor.id] : [cursor.id, cursor.key]),
  ).toString("base64url");
}

/** The cursor a URL carries, or null when it is not one we made (a hand-edited or stale link). */
export function decodeCursor(value: string, sort: TaskSort): TaskCursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed)) return null;
    const [id, key] = parsed as unknown[];
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0) return null;
    const kind = SORT_PLAN[sort].key;
    if (kind === "id") return parsed.length === 1 ? { id } : null;
    if (kind === "difficulty")
      return typeof key === "number" && Number.isFinite(key) ? { id, key } : null;
    return typeof key === "string" && key.length <= 64 ? { id, key } : null;
  } catch {
    return null;
  }
}

export type GenerationSummary = {
  id: number;
  index: number;
  status: GenerationStatus;
  stage: Stage;
  reviewClosedAt: string | null;
};

export type GetGenerationOptions = { runId: number; generationIndex: number; db?: Queryable };

/** One generation of a run, or null when the run has no such generation. */
export async function getGeneration(
  options: GetGenerationOptions,
): Promise<GenerationSummary | null> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<
    Omit<GenerationSummary, "reviewClosedAt"> & { reviewClosedAt: Date | null }
  >(
    `SELECT id, index, status, stage, "reviewClosedAt" FROM "Generation" WHERE "runId" = $1 AND index = $2`,
    [options.runId, options.generationIndex],
  );
  const row = rows[0];
  return row ? { ...row, reviewClosedAt: row.reviewClosedAt?.toISOString() ?? null } : null;
}

export type GenerationTaskRow = {
  id: number;
  instruction: string;
  skill: string;
  level: number;
  estimatedDifficulty: number;
  measuredDifficulty: number | null;
  origin: TaskOrigin;
  signalKind: SignalKind | null;
  parentTaskId: number | null;
  validationStatus: ValidationStatus;
  validationReason: string | null;
  reviewStatus: ReviewStatus;
  reviewer: string | null;
  reviewNote: string | null;
};

export type GenerationTaskPage = {
  rows: GenerationTaskRow[];
  /** Cursors for the neighbouring pages; null at either end. */
  next: string | null;
  previous: string | null;
};

export type ListGenerationTasksOptions = {
  runId: number;
  generationIndex: number;
  filter: TaskFilter;
  sort: TaskSort;
  /** Absent: the first page. */
  page?: PageRequest;
  limit: number;
  db?: Queryable;
};

const ROW_COLUMNS = `t.id, t.instruction, t.skill, t.level, t."estimatedDifficulty", t."measuredDifficulty",
  t.origin, t."signalKind", t."parentTaskId", t."validationStatus", t."validationReason",
  t."reviewStatus", t.reviewer, t."reviewNote"`;

/** The generation's id as a subquery: the planner runs it once and walks the index with it. */
const GENERATION_ID = `(SELECT g.id FROM "Generation" g WHERE g."runId" = $1 AND g.index = $2)`;

function cursorOf(row: GenerationTaskRow, sort: TaskSort): string {
  const key = SORT_PLAN[sort].key;
  if (key === "id") return encodeCursor({ id: row.id });
  return encodeCursor({ id: row.id, key: key === "skill" ? row.skill : row.estimatedDifficulty });
}

/** The statement of one page, exported so the benchmark and tests can EXPLAIN exactly it. */
export function listGenerationTasksSql(options: Omit<ListGenerationTasksOptions, "db">): {
  text: string;
  values: unknown[];
} {
  const plan = SORT_PLAN[options.sort];
  const values: unknown[] = [options.runId, options.generationIndex];
  const { conditions, params } = taskFilterSql(options.filter, 3);
  values.push(...params);
  // `= ANY(ARRAY[…])` rather than `=`: an equality would make generationId a constant to the
  // planner, which then drops it from the ORDER BY and may walk the primary key backwards,
  // filtering out other generations' rows (tens of thousands on a deep page). Written this way only
  // the (generationId, …, id) indexes yield the order.
  const where = [`t."generationId" = ANY(ARRAY[${GENERATION_ID}])`, ...conditions];
  const isBackward = options.page?.direction === "before";
  // Walking backwards: flip the order, take the rows just before the cursor, reverse them later.
  const dir = isBackward ? (plan.dir === "ASC" ? "DESC" : "ASC") : plan.dir;
  const cursor = options.page && options.page.cursor !== "end" ? options.page.cursor : null;
  if (cursor) {
    const op = dir === "ASC" ? ">" : "<";
    if (plan.key === "id") {
      values.push(cursor.id);
      where.push(`t.id ${op} $${values.length}`);
    } else {
      values.push(cursor.key, cursor.id);
      const cast = plan.key === "difficulty" ? "::float8" : "::text";
      where.push(
        `(${KEY_COLUMN[plan.key]}, t.id) ${op} ($${values.length - 1}${cast}, $${values.length}::int)`,
      );
    }
  }
  const order =
    plan.key === "id"
      ? `t."generationId" ${dir}, t.id ${dir}`
      : `t."generationId" ${dir}, ${KEY_COLUMN[plan.key]} ${dir}, t.id ${dir}`;
  values.push(options.limit + 1);
  return {
    text: `SELECT ${ROW_COLUMNS} FROM "Task" t WHERE ${where.join(" AND ")}
            ORDER BY ${order} LIMIT $${values.length}`,
    values,
  };
}

/**
 * One page of a generation's tasks. One row more than the page is read to know whether another
 * page follows in the walking direction; the other direction has one whenever a cursor was given.
 */
export async function listGenerationTasks(
  options: ListGenerationTasksOptions,
): Promise<GenerationTaskPage> {
  const db = options.db ?? getPool();
  const { text, values } = listGenerationTasksSql(options);
  const { rows } = await db.query<GenerationTaskRow>(text, values);
  const hasMore = rows.length > options.limit;
  const pageRows = rows.slice(0, options.limit);
  const isBackward = options.page?.direction === "before";
  if (isBackward) pageRows.reverse();
  const first = pageRows[0];
  const last = pageRows.at(-1);
  if (!first || !last) return { rows: [], next: null, previous: null };
  const hasPrevious = isBackward ? hasMore : options.page !== undefined;
  const hasNext = isBackward
    ? options.page?.direction === "before" && options.page.cursor !== "end"
    : hasMore;
  return {
    rows: pageRows,
    next: hasNext ? cursorOf(last, options.sort) : null,
    previous: hasPrevious ? cursorOf(first, options.sort) : null,
  };
}

export type GenerationTaskCounts = {
  /** Every task born in the generation. */
  total: number;
  /** Those the filter keeps (equal to total without a filter). */
  matching: number;
  review: Record<ReviewStatus, number>;
};

export type CountGenerationTasksOptions = {
  runId: number;
  generationIndex: number;
  filter: TaskFilter;
  db?: Queryable;
};

export function isEmptyFilter(filter: TaskFilter): boolean {
  return (
    filter.skill.length === 0 &&
    filter.review.length === 0 &&
    filter.signal.length === 0 &&
    filter.origin.length === 0 &&
    filter.validation.length === 0 &&
    filter.minDifficulty === undefined &&
    filter.maxDifficulty === undefined &&
    !filter.q
  );
}

/**
 * The table's counts. Review counts group the (generationId, reviewStatus, id) index, so they are
 * an index-only scan once the table is vacuumed; the filtered count reads what its filter needs.
 */
export async function countGenerationTasks(
  options: CountGenerationTasksOptions,
): Promise<GenerationTaskCounts> {
  const db = options.db ?? getPool();
  const base = [options.runId, options.generationIndex];
  const reviewQuery = db.query<{ reviewStatus: ReviewStatus; count: number }>(
    `SELECT t."reviewStatus", count(*)::int AS count FROM "Task" t
      WHERE t."generationId" = ${GENERATION_ID} GROUP BY t."reviewStatus"`,
    base,
  );
  const matchingQuery = isEmptyFilter(options.filter)
    ? null
    : db.query<{ count: number }>(countMatchingSql(options).text, countMatchingSql(options).values);
  const [review, matching] = await Promise.all([reviewQuery, matchingQuery]);
  const byStatus: Record<ReviewStatus, number> = { PENDING: 0, APPROVED: 0, REJECTED: 0 };
  for (const row of review.rows) byStatus[row.reviewStatus] = row.count;
  const total = byStatus.PENDING + byStatus.APPROVED + byStatus.REJECTED;
  return { total, matching: matching ? matching.rows[0]!.count : total, review: byStatus };
}

/** The filtered count's statement (exported for EXPLAIN in the benchmark and tests). */
export function countMatchingSql(options: Omit<CountGenerationTasksOptions, "db">): {
  text: string;
  values: unknown[];
} {
  const { conditions, params } = taskFilterSql(options.filter, 3);
  return {
    text: `SELECT count(*)::int AS count FROM "Task" t
            WHERE ${[`t."generationId" = ${GENERATION_ID}`, ...conditions].join(" AND ")}`,
    values: [options.runId, options.generationIndex, ...params],
  };
}

export type ListGenerationSkillsOptions = {
  runId: number;
  generationIndex: number;
  db?: Queryable;
};

/**
 * The skills of a generation's tasks, for the filter form: a skip scan over the
 * (generationId, skill, id) index, one probe per distinct skill instead of reading every task.
 */
export async function listGenerationSkills(
  options: ListGenerationSkillsOptions,
): Promise<string[]> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<{ skill: string }>(
    `WITH RECURSIVE gen AS (SELECT ${GENERATION_ID} AS id),
     skills AS (
       SELECT (SELECT min(t.skill) FROM "Task" t, gen WHERE t."generationId" = gen.id) AS skill
       UNION ALL
       SELECT (SELECT min(t.skill) FROM "Task" t, gen WHERE t."generationId" = gen.id AND t.skill > s.skill)
         FROM skills s WHERE s.skill IS NOT NULL
     )
     SELECT skill FROM skills WHERE skill IS NOT NULL`,
    [options.runId, options.generationIndex],
  );
  return rows.map((row) => row.skill);
}

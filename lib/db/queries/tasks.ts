import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import { isPlausibleIntId } from "@/lib/validations/ids";
import type {
  ReviewStatus,
  SignalKind,
  Split,
  TaskOrigin,
  TrajectoryPurpose,
  ValidationStatus,
} from "@/lib/generated/prisma/enums";

/**
 * Reads for the task page: the task, its lineage up to the seed, the tasks derived from it and its
 * trajectories across generations. Every read is scoped to the run, so an id from another run is
 * simply not found (share links must never reveal another run's rows).
 */

type Queryable = Pick<Pool, "query">;

const isPlausibleTaskId = isPlausibleIntId;

export type TaskSignal = {
  kind: SignalKind;
  score: number;
  details: Record<string, unknown>;
};

export type TaskTrigger = {
  id: string;
  generationIndex: number;
  purpose: TrajectoryPurpose;
  sampleIndex: number;
  reward: number;
  success: boolean;
};

export type TaskDetail = {
  id: number;
  key: string;
  bornGeneration: number;
  skill: string;
  level: number;
  origin: TaskOrigin;
  split: Split;
  instruction: string;
  spec: unknown;
  estimatedDifficulty: number;
  measuredDifficulty: number | null;
  measuredByPolicyVersion: number | null;
  validationStatus: ValidationStatus;
  validationReason: string | null;
  reviewStatus: ReviewStatus;
  reviewer: string | null;
  reviewedAt: Date | null;
  reviewNote: string | null;
  relation: string | null;
  parentTaskId: number | null;
  signalKind: SignalKind | null;
  signal: TaskSignal | null;
  trigger: TaskTrigger | null;
};

// The signal and trigger are joined through the run's generations: a row pointing elsewhere would
// be a bug, and is shown as absent rather than leaked.
const TASK_COLUMNS = `
  t.id, t.key, g.index AS "bornGeneration", t.skill, t.level, t.origin, t.split, t.instruction,
  t."estimatedDifficulty", t."measuredDifficulty", t."measuredByPolicyVersion",
  t."validationStatus", t."validationReason", t."reviewStatus", t.reviewer, t."reviewedAt",
  t."reviewNote", t.relation, t."parentTaskId", t."signalKind",
  s.kind AS "signalKindStored", s.score AS "signalScore", s.details AS "signalDetails",
  tr.id::text AS "triggerId", tg.index AS "triggerGeneration", tr.purpose AS "triggerPurpose",
  tr."sampleIndex" AS "triggerSample", tr.reward AS "triggerReward", tr.success AS "triggerSuccess"`;

const TASK_JOINS = `
  JOIN "Generation" g ON g.id = t."generationId"
  LEFT JOIN ("Signal" s JOIN "Generation" sg ON sg.id = s."generationId")
    ON s.id = t."signalId" AND sg."runId" = t."runId"
  LEFT JOIN ("Trajectory" tr JOIN "Generation" tg ON tg.id = tr."generationId")
    ON tr.id = t."triggerTrajectoryId" AND tg."runId" = t."runId"`;

type RawTask = Omit<TaskDetail, "signal" | "trigger" | "spec"> & {
  spec?: unknown;
  signalKindStored: SignalKind | null;
  signalScore: number | null;
  signalDetails: Record<string, unknown> | null;
  triggerId: string | null;
  triggerGeneration: number | null;
  triggerPurpose: TrajectoryPurpose | null;
  triggerSample: number | null;
  triggerReward: number | null;
  triggerSuccess: boolean | null;
};

function toTask(raw: RawTask): Omit<TaskDetail, "spec"> {
  const {
    signalKindStored,
    signalScore,
    signalDetails,
    triggerId,
    triggerGeneration,
    triggerPurpose,
    triggerSample,
    triggerReward,
    triggerSuccess,
    ...task
  } = raw;
  return {
    ...task,
    signal:
      signalKindStored !== null
        ? { kind: signalKindStored, score: signalScore ?? 0, details: signalDetails ?? {} }
        : null,
    trigger:
      triggerId !== null
        ? {
            id: triggerId,
            generationIndex: triggerGeneration ?? 0,
            purpose: triggerPurpose ?? "TRAIN",
            sampleIndex: triggerSample ?? 0,
            reward: triggerReward ?? 0,
            success: triggerSuccess ?? false,
          }
        : null,
  };
}

export type GetTaskOptions = { runId: number; taskId: number; db?: Queryable };

/** The task with its spec, signal and trigger; null when it is not a task of this run. */
export async function getTaskDetail(options: GetTaskOptions): Promise<TaskDetail | null> {
  if (!isPlausibleTaskId(options.taskId)) return null;
  const db = options.db ?? getPool();
  const { rows } = await db.query<RawTask>(
    `SELECT ${TASK_COLUMNS}, t.spec FROM "Task" t ${TASK_JOINS}
      WHERE t.id = $1 AND t."runId" = $2`,
    [options.taskId, options.runId],
  );
  const raw = rows[0];
  return raw ? { ...toTask(raw), spec: raw.spec } : null;
}

export type LineageEntry = Omit<TaskDetail, "spec">;

/** Deeper chains are cut here (and said so): a page must not walk an unbounded chain. */
export const LINEAGE_MAX_DEPTH = 64;

export type TaskLineage = {
  /** Seed (or the oldest reached) first, the task itself last. */
  chain: LineageEntry[];
  /** True when the chain was cut at LINEAGE_MAX_DEPTH before reaching a task without a parent. */
  isTruncated: boolean;
};

/** The parent chain of a task up to its seed; null when the task is not in this run. */
export async function getTaskLineage(options: GetTaskOptions): Promise<TaskLineage | null> {
  if (!isPlausibleTaskId(options.taskId)) return null;
  const db = options.db ?? getPool();
  const { rows } = await db.query<RawTask & { depth: number }>(
    `WITH RECURSIVE chain AS (
        SELECT c.id, c."parentTaskId", 0 AS depth FROM "Task" c WHERE c.id = $1 AND c."runId" = $2
        UNION ALL
        SELECT p.id, p."parentTaskId", chain.depth + 1
          FROM chain JOIN "Task" p ON p.id = chain."parentTaskId" AND p."runId" = $2
         WHERE chain.depth < $3
     )
     SELECT ${TASK_COLUMNS}, chain.depth FROM chain JOIN "Task" t ON t.id = chain.id ${TASK_JOINS}
      ORDER BY chain.depth DESC`,
    [options.taskId, options.runId, LINEAGE_MAX_DEPTH],
  );
  if (rows.length === 0) return null;
  const chain = rows.map(({ depth: _depth, ...raw }) => toTask(raw));
  return { chain, isTruncated: chain[0]!.parentTaskId !== null };
}

export type TaskChild = {
  id: number;
  instruction: string;
  relation: string | null;
  signalKind: SignalKind | null;
  bornGeneration: number;
  validationStatus: ValidationStatus;
  reviewStatus: ReviewStatus;
};

export const CHILDREN_LIMIT = 50;

/** Tasks synthesized from this one, oldest first, at most `limit` (plus whether there are more). */
export async function listTaskChildren(
  options: GetTaskOptions & { limit?: number },
): Promise<{ children: TaskChild[]; hasMore: boolean }> {
  if (!isPlausibleTaskId(options.taskId)) return { children: [], hasMore: false };
  const db = options.db ?? getPool();
  const limit = options.limit ?? CHILDREN_LIMIT;
  const { rows } = await db.query<TaskChild>(
    `SELECT t.id, t.instruction, t.relation, t."signalKind", g.index AS "bornGeneration",
            t."validationStatus", t."reviewStatus"
       FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
      WHERE t."parentTaskId" = $1 AND t."runId" = $2
      ORDER BY t.id LIMIT $3`,
    [options.taskId, options.runId, limit + 1],
  );
  return { children: rows.slice(0, limit), hasMore: rows.length > limit };
}

export type TaskTrajectoryRow = {
  id: string;
  generationIndex: number;
  purpose: TrajectoryPurpose;
  sampleIndex: number;
  reward: number;
  success: boolean;
  stepCount: number;
  meanEntropy: number;
  advantage: number | null;
  policyVersion: number;
  sideEffect: boolean;
};

/** Position after which a page starts: the last row of the previous page. */
export type TaskTrajectoryCursor = {
  generationIndex: number;
  purpose: TrajectoryPurpose;
  sampleIndex: number;
};

const PURPOSES: readonly TrajectoryPurpose[] = ["TRAIN", "EVAL", "VALIDATION"];

/** `3.TRAIN.12`; anything else is no cursor at all (the first page), never an error. */
export function parseTrajectoryCursor(value: string | undefined): TaskTrajectoryCursor | null {
  const match = /^(\d{1,9})\.(TRAIN|EVAL|VALIDATION)\.(\d{1,9})$/.exec(value ?? "");
  if (!match) return null;
  return {
    generationIndex: Number(match[1]),
    purpose: match[2] as TrajectoryPurpose,
    sampleIndex: Number(match[3]),
  };
}

export const formatTrajectoryCursor = (c: TaskTrajectoryCursor) =>
  `${c.generationIndex}.${c.purpose}.${c.sampleIndex}`;

export type ListTaskTrajectoriesOptions = GetTaskOptions & {
  /** Newest generation first by default. */
  order?: "asc" | "desc";
  purpose?: TrajectoryPurpose | null;
  after?: TaskTrajectoryCursor | null;
  limit?: number;
};

export type TaskTrajectoryPage = {
  rows: TaskTrajectoryRow[];
  /** The cursor of the next page, or null on the last one. */
  next: TaskTrajectoryCursor | null;
};

/**
 * One page of a task's trajectories, ordered by (generation, purpose, sample) — unique for one
 * task, so keyset pages neither skip nor repeat a row. Rows come from the (taskId, generationId)
 * index; a task has at most a few groups per generation.
 */
export async function listTaskTrajectories(
  options: ListTaskTrajectoriesOptions,
): Promise<TaskTrajectoryPage> {
  if (!isPlausibleTaskId(options.taskId)) return { rows: [], next: null };
  const db = options.db ?? getPool();
  const limit = options.limit ?? 50;
  const isDesc = options.order !== "asc";
  const direction = isDesc ? "DESC" : "ASC";
  const params: unknown[] = [options.taskId, options.runId, limit + 1];
  const conditions = [`tr."taskId" = $1`, `g."runId" = $2`];
  if (options.purpose && PURPOSES.includes(options.purpose)) {
    params.push(options.purpose);
    conditions.push(`tr.purpose = $${params.length}::"TrajectoryPurpose"`);
  }
  if (options.after) {
    params.push(options.after.generationIndex, options.after.purpose, options.after.sampleIndex);
    const at = params.length;
    // Generation descending, purpose and sample ascending within it (a group reads in order).
    conditions.push(
      isDesc
        ? `(g.index < $${at - 2} OR (g.index = $${at - 2}
             AND (tr.purpose, tr."sampleIndex") > ($${at - 1}::"TrajectoryPurpose", $${at})))`
        : `(g.index, tr.purpose, tr."sampleIndex") > ($${at - 2}, $${at - 1}::"TrajectoryPurpose", $${at})`,
    );
  }
  const { rows } = await db.query<TaskTrajectoryRow>(
    `SELECT tr.id::text AS id, g.index AS "generationIndex", tr.purpose, tr."sampleIndex",
            tr.reward, tr.success, tr."stepCount", tr."meanEntropy", tr.advantage,
            tr."policyVersion", tr."sideEffect"
       FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
      WHERE ${conditions.join(" AND ")}
      ORDER BY g.index ${direction}, tr.purpose, tr."sampleIndex"
      LIMIT $3`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    next:
      rows.length > limit && last
        ? {
            generationIndex: last.generationIndex,
            purpose: last.purpose,
            sampleIndex: last.sampleIndex,
          }
        : null,
  };
}

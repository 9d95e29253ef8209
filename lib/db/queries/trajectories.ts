import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import type { TrajectoryStep } from "@/lib/engine/types";
import type { TrajectoryPurpose } from "@/lib/generated/prisma/enums";
import { isPlausibleIntId, parseBigIntId } from "@/lib/validations/ids";

/**
 * Reads for the trajectory viewer and the GRPO group view: the only pages that load the steps
 * JSON. Scoped to the run through the trajectory's generation, so another run's id is not found.
 */

type Queryable = Pick<Pool, "query">;

/** Trajectory ids are bigint; anything that is not a positive int8 cannot name one. */
export const parseTrajectoryId = parseBigIntId;

export type TrajectoryHeader = {
  id: string;
  taskId: number;
  taskInstruction: string;
  taskSkill: string;
  taskLevel: number;
  generationIndex: number;
  purpose: TrajectoryPurpose;
  sampleIndex: number;
  policyVersion: number;
  reward: number;
  success: boolean;
  stepCount: number;
  meanEntropy: number;
  advantage: number | null;
  sideEffect: boolean;
  endReason: string | null;
  failure: string | null;
  error: string | null;
  answer: string | null;
  /** Reported by an external agent's endpoint; null for the builtin agent. */
  promptTokens: number | null;
  completionTokens: number | null;
};

export type TrajectoryDetail = TrajectoryHeader & { steps: TrajectoryStep[] };

const HEADER_COLUMNS = `tr.id::text AS id, tr."taskId", t.instruction AS "taskInstruction",
  t.skill AS "taskSkill", t.level AS "taskLevel", g.index AS "generationIndex", tr.purpose,
  tr."sampleIndex", tr."policyVersion", tr.reward, tr.success, tr."stepCount", tr."meanEntropy",
  tr.advantage, tr."sideEffect", tr."endReason", tr.failure, tr.error, tr.answer,
  tr."promptTokens", tr."completionTokens"`;

export type GetTrajectoryOptions = { runId: number; trajectoryId: string; db?: Queryable };

/** One trajectory with its steps; null when the id is malformed or names another run's row. */
export async function getTrajectory(
  options: GetTrajectoryOptions,
): Promise<TrajectoryDetail | null> {
  const id = parseTrajectoryId(options.trajectoryId);
  if (!id) return null;
  const db = options.db ?? getPool();
  const { rows } = await db.query<TrajectoryDetail>(
    `SELECT ${HEADER_COLUMNS}, tr.steps
       FROM "Trajectory" tr
       JOIN "Generation" g ON g.id = tr."generationId"
       JOIN "Task" t ON t.id = tr."taskId"
      WHERE tr.id = $1::bigint AND g."runId" = $2`,
    [id, options.runId],
  );
  const row = rows[0];
  return row ? { ...row, steps: Array.isArray(row.steps) ? row.steps : [] } : null;
}

export type GroupMember = { id: string; sampleIndex: number; reward: number };

/**
 * Every sample of the (generation, task, purpose) a trajectory belongs to, in sample order: enough
 * for prev/next links and the group's advantages without loading anyone's steps.
 */
export async function listGroupMembers(options: {
  runId: number;
  generationIndex: number;
  taskId: number;
  purpose: TrajectoryPurpose;
  db?: Queryable;
}): Promise<GroupMember[]> {
  if (!isPlausibleIntId(options.taskId)) return [];
  const db = options.db ?? getPool();
  const { rows } = await db.query<GroupMember>(
    `SELECT tr.id::text AS id, tr."sampleIndex", tr.reward
       FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
      WHERE g."runId" = $1 AND g.index = $2 AND tr."taskId" = $3
        AND tr.purpose = $4::"TrajectoryPurpose"
      ORDER BY tr."sampleIndex"`,
    [options.runId, options.generationIndex, options.taskId, options.purpose],
  );
  return rows;
}

export type GroupTask = { id: number; instruction: string; skill: string; level: number };

export type GroupRollouts = {
  task: GroupTask;
  generationIndex: number;
  purpose: TrajectoryPurpose;
  /** All samples of this task, generation and purpose, in sample order (one or more GRPO groups). */
  rollouts: TrajectoryDetail[];
};

export type GetGroupOptions = {
  runId: number;
  generationIndex: number;
  taskId: number;
  purpose?: TrajectoryPurpose;
  db?: Queryable;
};

/**
 * The rollouts of one task in one generation. Null when the task is not this run's; an existing
 * task with no rollouts in that generation gives an empty list (the page says so).
 */
export async function getGroup(options: GetGroupOptions): Promise<GroupRollouts | null> {
  if (!isPlausibleIntId(options.taskId)) return null;
  const index = options.generationIndex;
  if (index !== 0 && !isPlausibleIntId(index)) return null;
  const db = options.db ?? getPool();
  const purpose = options.purpose ?? "TRAIN";
  const { rows: tasks } = await db.query<GroupTask>(
    `SELECT id, instruction, skill, level FROM "Task" WHERE id = $1 AND "runId" = $2`,
    [options.taskId, options.runId],
  );
  const task = tasks[0];
  if (!task) return null;
  const { rows } = await db.query<TrajectoryDetail>(
    `SELECT ${HEADER_COLUMNS}, tr.steps
       FROM "Trajectory" tr
       JOIN "Generation" g ON g.id = tr."generationId"
       JOIN "Task" t ON t.id = tr."taskId"
      WHERE g."runId" = $1 AND g.index = $2 AND tr."taskId" = $3
        AND tr.purpose = $4::"TrajectoryPurpose"
      ORDER BY tr."sampleIndex"`,
    [options.runId, options.generationIndex, options.taskId, purpose],
  );
  return {
    task,
    generationIndex: options.generationIndex,
    purpose,
    rollouts: rows.map((row) => ({ ...row, steps: Array.isArray(row.steps) ? row.steps : [] })),
  };
}

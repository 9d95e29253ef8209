import type { PoolClient } from "pg";
import { trajectoryId } from "@/lib/engine/rollout";
import type {
  EndReason,
  JsonObject,
  PolicyCheckpoint,
  RolloutPurpose,
  Signal,
  SignalKind,
  Task,
  Trajectory,
  TrajectoryStep,
} from "@/lib/engine/types";
import { readCheckpointUri } from "./checkpoint-uri";

/**
 * Moves the engine's plain data in and out of Postgres. The engine names things by stable string
 * keys (task ids derived from fingerprints, signal ids); the database by integer ids. Every insert
 * here is idempotent on those keys, so a stage that is retried after a crash writes nothing twice.
 */

type Db = Pick<PoolClient, "query">;

const upper = <T extends string>(value: T) => value.toUpperCase();
const lower = <T extends string>(value: T) => value.toLowerCase();

type TaskRow = {
  id: number;
  key: string;
  fingerprint: string;
  skill: string;
  level: number;
  estimatedDifficulty: number;
  measuredDifficulty: number | null;
  measuredByPolicyVersion: number | null;
  origin: string;
  split: string;
  signalKind: string | null;
  signalKey: string | null;
  parentKey: string | null;
  relation: string | null;
  triggerTrajectoryId: string | null;
  bornGeneration: number;
  instruction: string;
  spec: JsonObject;
  validationStatus: string;
  validationReason: string | null;
  reviewStatus: string;
  reviewer: string | null;
  reviewNote: string | null;
};

const TASK_SELECT = `
  SELECT t.id, t.key, t.fingerprint, t.skill, t.level, t."estimatedDifficulty",
         t."measuredDifficulty", t."measuredByPolicyVersion", t.origin, t.split, t."signalKind",
         s.key AS "signalKey", p.key AS "parentKey", t.relation,
         t."triggerTrajectoryId"::text AS "triggerTrajectoryId", g.index AS "bornGeneration",
         t.instruction, t.spec, t."validationStatus", t."validationReason", t."reviewStatus",
         t.reviewer, t."reviewNote"
    FROM "Task" t
    JOIN "Generation" g ON g.id = t."generationId"
    LEFT JOIN "Task" p ON p.id = t."parentTaskId"
    LEFT JOIN "Signal" s ON s.id = t."signalId"`;

/**
 * The database id of the trajectory an engine key names (`r.trigger` = parseTrajectoryKey's
 * output as jsonb, `$1` = the run id), for statements that select from a recordset `r`.
 */
const TRIGGER_TRAJECTORY_ID = `(SELECT tr.id FROM "Trajectory" tr
     JOIN "Generation" tg ON tg.id = tr."generationId"
     JOIN "Task" tt ON tt.id = tr."taskId"
    WHERE tg."runId" = $1 AND tg.index = (r.trigger->>'generation')::int
      AND tt.key = r.trigger->>'taskKey'
      AND tr.purpose = (r.trigger->>'purpose')::"TrajectoryPurpose"
      AND tr."sampleIndex" = (r.trigger->>'sampleIndex')::int)`;

export type StoredTask = { dbId: number; task: Task };

function rowToTask(row: TaskRow, environment: string): StoredTask {
  return {
    dbId: row.id,
    task: {
      id: row.key,
      fingerprint: row.fingerprint,
      environment,
      skill: row.skill,
      level: row.level,
      estimatedDifficulty: row.estimatedDifficulty,
      measuredDifficulty: row.measuredDifficulty,
      measuredByPolicyVersion: row.measuredByPolicyVersion,
      origin: lower(row.origin) as Task["origin"],
      signal:
        row.signalKind && row.signalKind !== "UNIFORM"
          ? (lower(row.signalKind) as SignalKind)
          : null,
      signalId: row.signalKey,
      parentTaskId: row.parentKey,
      relation: row.relation as Task["relation"],
      triggerTrajectoryId: row.triggerTrajectoryId,
      bornGeneration: row.bornGeneration,
      instruction: row.instruction,
      spec: row.spec,
      split: lower(row.split) as Task["split"],
      validation: {
        status: lower(row.validationStatus) as Task["validation"]["status"],
        reason: row.validationReason,
      },
      review: {
        status: lower(row.reviewStatus) as Task["review"]["status"],
        by: row.reviewer,
        note: row.reviewNote,
      },
    },
  };
}

export type LoadTasksFilter =
  { ids: readonly number[] } | { split: "TRAIN" | "HELDOUT" } | { bornInGenerationId: number };

/** Tasks of a run in insertion order (the order the engine created them in). */
export async function loadTasks(
  db: Db,
  options: { runId: number; environment: string; filter: LoadTasksFilter },
): Promise<StoredTask[]> {
  const { filter } = options;
  const [condition, value] =
    "ids" in filter
      ? [`t.id = ANY($2::int[])`, filter.ids]
      : "split" in filter
        ? [`t.split = $2::"Split"`, filter.split]
        : [`t."generationId" = $2`, filter.bornInGenerationId];
  const { rows } = await db.query<TaskRow>(
    `${TASK_SELECT} WHERE t."runId" = $1 AND ${condition} ORDER BY t.id`,
    [options.runId, value],
  );
  return rows.map((row) => rowToTask(row, options.environment));
}

/**
 * Inserts tasks born in `generationId`, skipping any whose key already exists (a retried stage).
 * Parents, signals and triggering trajectories are resolved from their engine keys here.
 */
export async function insertTasks(
  db: Db,
  options: { runId: number; generationId: number; tasks: readonly Task[] },
): Promise<void> {
  if (options.tasks.length === 0) return;
  const rows = options.tasks.map((task) => ({
    key: task.id,
    fingerprint: task.fingerprint,
    skill: task.skill,
    level: task.level,
    estimatedDifficulty: task.estimatedDifficulty,
    measuredDifficulty: task.measuredDifficulty,
    measuredByPolicyVersion: task.measuredByPolicyVersion,
    origin: upper(task.origin),
    split: upper(task.split),
    signalKind: task.signal ? upper(task.signal) : null,
    signalKey: task.signalId,
    parentKey: task.parentTaskId,
    relation: task.relation,
    trigger: task.triggerTrajectoryId ? parseTrajectoryKey(task.triggerTrajectoryId) : null,
    instruction: task.instruction,
    spec: task.spec,
    reviewer: task.review.by,
    validationStatus: upper(task.validation.status),
    validationReason: task.validation.reason,
    reviewStatus: upper(task.review.status),
    reviewNote: task.review.note,
  }));
  await db.query(
    `INSERT INTO "Task" ("runId", "generationId", key, fingerprint, skill, level,
       "estimatedDifficulty", "measuredDifficulty", "measuredByPolicyVersion", origin, split,
       "signalKind", "signalId", "parentTaskId", relation, "triggerTrajectoryId", instruction, spec,
       "validationStatus", "validationReason", "reviewStatus", reviewer, "reviewNote", "reviewedAt")
     SELECT $1, $2, r.key, r.fingerprint, r.skill, r.level, r."estimatedDifficulty",
            r."measuredDifficulty", r."measuredByPolicyVersion", r.origin::"TaskOrigin",
            r.split::"Split", r."signalKind"::"SignalKind",
            (SELECT s.id FROM "Signal" s JOIN "Generation" sg ON sg.id = s."generationId"
              WHERE sg."runId" = $1 AND s.key = r."signalKey" ORDER BY s.id DESC LIMIT 1),
            (SELECT p.id FROM "Task" p WHERE p."runId" = $1 AND p.key = r."parentKey"),
            r.relation,
            ${TRIGGER_TRAJECTORY_ID},
            r.instruction, r.spec, r."validationStatus"::"ValidationStatus", r."validationReason",
            r."reviewStatus"::"ReviewStatus", r.reviewer, r."reviewNote",
            CASE WHEN r."reviewStatus" = 'PENDING' THEN NULL ELSE now() END
       FROM jsonb_to_recordset($3::jsonb) AS r(
         key text, fingerprint text, skill text, level int, "estimatedDifficulty" float8,
         "measuredDifficulty" float8, "measuredByPolicyVersion" int, origin text, split text,
         "signalKind" text, "signalKey" text, "parentKey" text, relation text, trigger jsonb,
         instruction text, spec jsonb, "validationStatus" text, "validationReason" text,
         "reviewStatus" text, reviewer text, "reviewNote" text)
     ON CONFLICT DO NOTHING`,
    [options.runId, options.generationId, JSON.stringify(rows)],
  );
}

function parseTrajectoryKey(key: string) {
  // `${purpose}:${generation}:${taskId}:${sampleIndex}` — task ids contain no colon.
  const parts = key.split(":");
  const [purpose, generation] = parts;
  const sampleIndex = parts[parts.length - 1];
  return {
    purpose: upper(purpose ?? "train"),
    generation: Number(generation),
    taskKey: parts.slice(2, -1).join(":"),
    sampleIndex: Number(sampleIndex),
  };
}

/** Idempotent: a signal already stored under its key is kept as it was. */
export async function insertSignals(
  db: Db,
  options: { runId: number; generationId: number; signals: readonly Signal[] },
): Promise<void> {
  if (options.signals.length === 0) return;
  const rows = options.signals.map((signal) => ({
    key: signal.id,
    kind: upper(signal.kind),
    score: signal.score,
    taskKey: signal.taskId,
    details: { ...signal.details, skill: signal.skill, level: signal.level },
    trigger: signal.trajectoryId ? parseTrajectoryKey(signal.trajectoryId) : null,
  }));
  await db.query(
    `INSERT INTO "Signal" ("generationId", key, kind, score, "taskId", details, "trajectoryId")
     SELECT $2, r.key, r.kind::"SignalKind", r.score,
            (SELECT t.id FROM "Task" t WHERE t."runId" = $1 AND t.key = r."taskKey"),
            r.details,
            ${TRIGGER_TRAJECTORY_ID}
       FROM jsonb_to_recordset($3::jsonb) AS r(key text, kind text, score float8, "taskKey" text,
                                               details jsonb, trigger jsonb)
     ON CONFLICT ("generationId", key) DO NOTHING`,
    [options.runId, options.generationId, JSON.stringify(rows)],
  );
}

type SignalRow = {
  key: string;
  kind: string;
  score: number;
  taskKey: string | null;
  trajectoryKey: string | null;
  details: JsonObject & { skill?: string | null; level?: number | null };
  generation: number;
};

export async function loadSignals(db: Db, options: { generationId: number }): Promise<Signal[]> {
  const { rows } = await db.query<SignalRow>(
    `SELECT s.key, s.kind, s.score, t.key AS "taskKey", s.details, g.index AS generation,
            CASE WHEN tr.id IS NULL THEN NULL
                 ELSE lower(tr.purpose::text) || ':' || tg.index || ':' || tt.key || ':' || tr."sampleIndex"
            END AS "trajectoryKey"
       FROM "Signal" s
       JOIN "Generation" g ON g.id = s."generationId"
       LEFT JOIN "Task" t ON t.id = s."taskId"
       LEFT JOIN "Trajectory" tr ON tr.id = s."trajectoryId"
       LEFT JOIN "Generation" tg ON tg.id = tr."generationId"
       LEFT JOIN "Task" tt ON tt.id = tr."taskId"
      WHERE s."generationId" = $1
      ORDER BY s.id`,
    [options.generationId],
  );
  return rows.map((row) => {
    const { skill = null, level = null, ...details } = row.details;
    return {
      id: row.key,
      generation: row.generation,
      kind: lower(row.kind) as SignalKind,
      score: row.score,
      taskId: row.taskKey,
      trajectoryId: row.trajectoryKey,
      skill: (skill as string | null) ?? null,
      level: (level as number | null) ?? null,
      details,
    };
  });
}

type TrajectoryRow = {
  taskKey: string;
  generation: number;
  purpose: string;
  sampleIndex: number;
  policyVersion: number;
  steps: TrajectoryStep[];
  reward: number;
  success: boolean;
  sideEffect: boolean;
  stepCount: number;
  meanEntropy: number;
  answer: string | null;
  endReason: string | null;
  failure: string | null;
  error: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
};

function endReasonOf(stored: string | null): EndReason {
  return stored === "max_steps" || stored === "agent_error" ? stored : "finish";
}

/** A generation's trajectories of one purpose, in a canonical order (training is order-sensitive). */
export async function loadTrajectories(
  db: Db,
  options: { generationId: number; purpose: "TRAIN" | "EVAL" },
): Promise<Trajectory[]> {
  const { rows } = await db.query<TrajectoryRow>(
    `SELECT t.key AS "taskKey", g.index AS generation, tr.purpose, tr."sampleIndex",
            tr."policyVersion", tr.steps, tr.reward, tr.success, tr."sideEffect", tr."stepCount",
            tr."meanEntropy", tr.answer, tr."endReason", tr.failure, tr.error,
            tr."promptTokens", tr."completionTokens"
       FROM "Trajectory" tr
       JOIN "Task" t ON t.id = tr."taskId"
       JOIN "Generation" g ON g.id = tr."generationId"
      WHERE tr."generationId" = $1 AND tr.purpose = $2::"TrajectoryPurpose"
      ORDER BY t.id, tr."sampleIndex"`,
    [options.generationId, options.purpose],
  );
  return rows.map((row) => {
    const purpose = lower(row.purpose) as RolloutPurpose;
    return {
      id: trajectoryId(purpose, row.generation, row.taskKey, row.sampleIndex),
      taskId: row.taskKey,
      generation: row.generation,
      purpose,
      sampleIndex: row.sampleIndex,
      policyVersion: row.policyVersion,
      steps: row.steps,
      reward: row.reward,
      success: row.success,
      sideEffect: row.sideEffect,
      stepCount: row.stepCount,
      meanEntropy: row.meanEntropy,
      answer: row.answer,
      endReason: endReasonOf(row.endReason),
      failure: row.failure,
      ...(row.error !== null ? { error: row.error } : {}),
      ...(row.promptTokens !== null && row.completionTokens !== null
        ? { usage: { promptTokens: row.promptTokens, completionTokens: row.completionTokens } }
        : {}),
    };
  });
}

export async function saveCheckpoint(
  db: Db,
  options: { runId: number; generationId: number; checkpoint: PolicyCheckpoint },
): Promise<void> {
  await db.query(
    `INSERT INTO "PolicyCheckpoint" ("runId", "generationId", version, weights)
     VALUES ($1, $2, $3, $4) ON CONFLICT ("generationId") DO NOTHING`,
    [
      options.runId,
      options.generationId,
      options.checkpoint.version,
      JSON.stringify(options.checkpoint),
    ],
  );
}

export async function loadCheckpoint(
  db: Db,
  options: { runId: number; version: number },
): Promise<PolicyCheckpoint> {
  const stored = await loadStoredCheckpoint(db, options);
  if (stored.weights) return stored.weights;
  return readCheckpointUri(stored.uri!, options.version);
}

/** A checkpoint as stored: builtin weights, or the URI an external trainer reported. */
export async function loadStoredCheckpoint(
  db: Db,
  options: { runId: number; version: number },
): Promise<{ weights: PolicyCheckpoint | null; uri: string | null }> {
  const { rows } = await db.query<{ weights: PolicyCheckpoint | null; uri: string | null }>(
    `SELECT weights, uri FROM "PolicyCheckpoint" WHERE "runId" = $1 AND version = $2`,
    [options.runId, options.version],
  );
  const row = rows[0];
  if (!row || (!row.weights && !row.uri))
    throw new Error(`run ${options.runId} has no policy checkpoint v${options.version}`);
  return row;
}

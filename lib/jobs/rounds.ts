import type PgBoss from "pg-boss";
import type { Pool, PoolClient } from "pg";
import { insertTrajectories } from "@/lib/db/mutations/trajectories";
import { refreshDataStats } from "@/lib/db/mutations/data-stats";
import { withTransaction } from "@/lib/db/transaction";
import { curateTasks } from "@/lib/engine/curation/curate";
import type { EngineDeps } from "@/lib/engine/engine";
import { summarizeHeldout } from "@/lib/engine/evaluation";
import { createHistory, updateHistory } from "@/lib/engine/history";
import { isSeedPoolTask, selectNextPool } from "@/lib/engine/pool";
import { rolloutBatch } from "@/lib/engine/rollout";
import { droppedCandidates } from "@/lib/engine/synthesizers/llm";
import {
  createBasePolicy,
  createBasePolicyAsync,
  generateEvaluationSet,
  generateSeedPool,
} from "@/lib/engine/setup";
import {
  countUsage,
  detectForgetting,
  extractSignals,
  summarizeGroups,
} from "@/lib/engine/signals";
import {
  buildTrainingGroups,
  indexTasks,
  measureDifficulty,
  planRollouts,
  rankApproved,
  synthesizeTasks,
  trainPolicy,
  validateTasks,
} from "@/lib/engine/stages";
import type { RunHistory, Task, Trajectory } from "@/lib/engine/types";
import type { Stage } from "@/lib/generated/prisma/enums";
import {
  externalTrainerOf,
  httpEnvironmentOf,
  llmSynthesizerOf,
  parseRunConfig,
  type ExternalTrainerConfig,
  type RunConfig,
} from "@/lib/validations/run-config";
import {
  insertSignals,
  insertTasks,
  loadCheckpoint,
  loadSignals,
  loadStoredCheckpoint,
  loadTasks,
  loadTrajectories,
  saveCheckpoint,
  type StoredTask,
} from "./engine-rows";
import { connectionKey, createRunDeps } from "./deps";
import { rolloutBatchExpirySeconds } from "./expiry";
import {
  defaultExternalTrainerSetup,
  describeTimeout,
  launchExternalTrainer,
  newCallbackToken,
  prepareTrainingJob,
  type ExternalTrainerSetup,
} from "./external-trainer";
import {
  enqueueRolloutBatches,
  enqueueStage,
  enqueueStageAt,
  type RolloutJob,
  type StageJob,
} from "./queue";

/**
 * A round as persisted stages (DESIGN.md §3). Each stage job reads what earlier stages committed,
 * runs the engine's pure stage function, and in ONE transaction writes its output, moves the
 * generation to the next stage and enqueues that stage's job. Every write is guarded by the
 * generation's (stage, attempt, status), so a duplicate or stale job changes nothing, and every
 * insert is idempotent on a unique key, so a job retried after a crash never doubles data.
 *
 * Generation 0: SEED → EVALUATE → NEXT_POOL. Round g → g+1 (the generation row g+1 tracks it):
 * ROLLOUT (pool g by policy g) → TRAIN (policy g+1) → EVALUATE (held-out, policy g+1) → SIGNALS
 * (from g's rollouts) → SYNTHESIZE → VALIDATE → CURATE → NEXT_POOL (pool g+1). Static mode skips
 * SYNTHESIZE, VALIDATE and CURATE.
 */

export type RoundContext = {
  pool: Pool;
  boss: PgBoss;
  /** Engine parts for a run's config; tests substitute failing ones. Default: createRunDeps. */
  depsFor?: (config: RunConfig, runId: number) => EngineDeps | Promise<EngineDeps>;
  /** Opens the API keys of the connections a run's agent or environment names. */
  secretKey?: Buffer;
  /** Where external trainers' data goes and the URL they call back; defaults from the env. */
  externalTrainer?: ExternalTrainerSetup;
  /** The API key of a saved trainer-webhook connection, for webhooks that name one. */
};

/** Pool slots per rollout job (× G rollouts each) and held-out tasks per evaluation job. */
export const ROLLOUT_SLOTS_PER_BATCH = 6;
export const EVAL_TASKS_PER_BATCH = 35;

const ROUND_STAGES: Stage[] = [
  "ROLLOUT",
  "TRAIN",
  "EVALUATE",
  "SIGNALS",
  "SYNTHESIZE",
  "VALIDATE",
  "CURATE",
  "NEXT_POOL",
  "DONE",
];
const SEED_STAGES: Stage[] = ["SEED", "EVALUATE", "NEXT_POOL", "DONE"];
const STATIC_SKIPPED = new Set<Stage>(["SYNTHESIZE", "VALIDATE", "CURATE"]);

export function stagesFor(index: number, mode: RunConfig["mode"]): Stage[] {
  if (index === 0) return SEED_STAGES;
  return mode === "static" ? ROUND_STAGES.filter((s) => !STATIC_SKIPPED.has(s)) : ROUND_STAGES;
}

function nextStageOf(index: number, mode: RunConfig["mode"], stage: Stage): Stage {
  const stages = stagesFor(index, mode);
  const next = stages[stages.indexOf(stage) + 1];
  if (!next) throw new Error(`no stage after ${stage}`);
  return next;
}

type Claimed = {
  id: number;
  runId: number;
  index: number;
  stage: Stage;
  attempt: number;
  config: RunConfig;
  environment: string;
  previousId: number | null;
  previousHistory: RunHistory | null;
  history: RunHistory | null;
};

/** Marks the generation running if this job still owns it; null if it was cancelled or superseded. */
async function claim(db: Pick<PoolClient, "query">, job: StageJob): Promise<Claimed | null> {
  const { rows } = await db.query<{
    id: number;
    runId: number;
    index: number;
    stage: Stage;
    attempt: number;
    config: unknown;
    environment: string;
    history: RunHistory | null;
  }>(
    `UPDATE "Generation" g
        SET status = 'RUNNING', "startedAt" = coalesce(g."startedAt", now()),
            progress = jsonb_set(g.progress, ARRAY[g.stage::text],
              coalesce(g.progress -> g.stage::text, '{}'::jsonb)
              || jsonb_build_object('startedAt',
                   coalesce(g.progress -> g.stage::text -> 'startedAt', to_jsonb(now()))))
       FROM "Run" r
      WHERE g.id = $1 AND g.attempt = $2 AND g.status IN ('QUEUED', 'RUNNING') AND r.id = g."runId"
  RETURNING g.id, g."runId", g.index, g.stage, g.attempt, r.config, r.environment, g.history`,
    [job.generationId, job.attempt],
  );
  const row = rows[0];
  if (!row) return null;
  const previous = await db.query<{ id: number; history: RunHistory | null }>(
    `SELECT id, history FROM "Generation" WHERE "runId" = $1 AND index = $2`,
    [row.runId, row.index - 1],
  );
  return {
    ...row,
    config: parseRunConfig(row.config),
    previousId: previous.rows[0]?.id ?? null,
    previousHistory: previous.rows[0]?.history ?? null,
  };
}

/** What moving a generation on needs to know about it. */
export type OwnedGeneration = Pick<Claimed, "id" | "runId" | "index" | "attempt"> & {
  config: Pick<RunConfig, "mode">;
};

/**
 * Moves the generation from `from` to the next stage and enqueues it, inside the caller's
 * transaction. Returns false if the generation moved on without us (a duplicate job): the caller's
 * transaction must then roll back so nothing it wrote is kept twice.
 */
export async function advance(
  client: PoolClient,
  ctx: Pick<RoundContext, "boss">,
  gen: OwnedGeneration,
  from: Stage,
  options: {
    to?: Stage;
    status?: "RUNNING" | "AWAITING_REVIEW";
    extra?: Record<string, unknown>;
  } = {},
): Promise<boolean> {
  const to = options.to ?? nextStageOf(gen.index, gen.config.mode, from);
  const status = to === "DONE" ? "DONE" : (options.status ?? "RUNNING");
  const { rowCount } = await client.query(
    `UPDATE "Generation"
        SET stage = $4::"Stage", status = $5::"GenerationStatus",
            "finishedAt" = CASE WHEN $5 = 'DONE' THEN now() ELSE NULL END,
            progress = jsonb_set(progress, ARRAY[$3::text],
              coalesce(progress -> $3::text, '{}'::jsonb)
              || jsonb_build_object('finishedAt', now())
              || CASE WHEN progress -> $3::text ? 'total' THEN '{}'::jsonb
                      ELSE '{"done": 1, "total": 1}'::jsonb END
              || $6::jsonb)
      WHERE id = $1 AND attempt = $2 AND stage = $3::"Stage" AND status = 'RUNNING'`,
    [gen.id, gen.attempt, from, to, status, JSON.stringify(options.extra ?? {})],
  );
  if (rowCount !== 1) return false;
  if (status === "RUNNING") {
    await enqueueStage(ctx.boss, client, { generationId: gen.id, attempt: gen.attempt });
  }
  if (status === "DONE") await continueAutomatically(client, ctx, gen);
  return true;
}

/** Runs with `autoRounds` (the demo) launch their next round as soon as one finishes. */
async function continueAutomatically(
  client: PoolClient,
  ctx: Pick<RoundContext, "boss">,
  gen: OwnedGeneration,
) {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status, stage)
     SELECT r.id, $2 + 1, 'QUEUED', 'ROLLOUT' FROM "Run" r
      WHERE r.id = $1 AND r.status = 'ACTIVE' AND r."autoRounds" > $2
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [gen.runId, gen.index],
  );
  const next = rows[0];
  if (next) await enqueueStage(ctx.boss, client, { generationId: next.id, attempt: 0 });
}

class LostOwnership extends Error {
  constructor() {
    super("the generation moved on without this job");
  }
}

/** Writes a stage's output and advances in one transaction, or writes nothing. */
async function commitStage(
  ctx: RoundContext,
  gen: Claimed,
  from: Stage,
  /** Writes the stage's output; what it returns is added to the stage's progress entry. */
  write: (client: PoolClient) => Promise<Record<string, unknown> | void>,
  options: Parameters<typeof advance>[4] = {},
): Promise<void> {
  try {
    await withTransaction(ctx.pool, async (client) => {
      const extra = (await write(client)) ?? {};
      const merged = { ...options, extra: { ...options.extra, ...extra } };
      if (!(await advance(client, ctx, gen, from, merged))) throw new LostOwnership();
    });
  } catch (error) {
    if (!(error instanceof LostOwnership)) throw error;
  }
}

async function depsOf(ctx: RoundContext, config: RunConfig, runId: number): Promise<EngineDeps> {
  if (ctx.depsFor) return ctx.depsFor(config, runId);
  return createRunDeps(config, { db: ctx.pool, runId, secretKey: ctx.secretKey });
}

/** Entry point of a stage job. */
export async function runStageJob(ctx: RoundContext, job: StageJob): Promise<void> {
  const gen = await claim(ctx.pool, job);
  if (!gen) return;
  try {
    await runStage(ctx, gen);
  } catch (error) {
    if (isRetryable(error)) throw error;
    await markFailed(ctx.pool, gen, error);
  }
}

export async function markFailed(
  pool: Pool,
  gen: Pick<Claimed, "id" | "attempt" | "stage">,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await pool.query(
    `UPDATE "Generation" SET status = 'FAILED', error = $3, "finishedAt" = now()
      WHERE id = $1 AND attempt = $2 AND status = 'RUNNING'`,
    [gen.id, gen.attempt, `${gen.stage}: ${message}`.slice(0, 4000)],
  );
}

/** Connection loss, shutdown, serialization conflicts: the queue retries these; the rest fail. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") {
    if (code.startsWith("08") || code === "57P01" || code === "40001" || code === "40P01")
      return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"].includes(code)) return true;
  }
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    message,
  );
}

async function runStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  switch (gen.stage) {
    case "SEED":
      return seedStage(ctx, gen);
    case "ROLLOUT":
    case "EVALUATE":
      return batchedStage(ctx, gen, gen.stage);
    case "TRAIN": {
      const external = externalTrainerOf(gen.config);
      return external ? externalTrainStage(ctx, gen, external) : trainStage(ctx, gen);
    }
    case "SIGNALS":
      return signalsStage(ctx, gen);
    case "SYNTHESIZE":
      return synthesizeStage(ctx, gen);
    case "VALIDATE":
      return validateStage(ctx, gen);
    case "CURATE":
      return curateStage(ctx, gen);
    case "NEXT_POOL":
      return nextPoolStage(ctx, gen);
    case "DONE":
      return;
  }
}

async function seedStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const deps = await depsOf(ctx, gen.config, gen.runId);
  const heldout = await generateEvaluationSet(deps.environment, gen.config, "heldout");
  const seeds = await generateSeedPool(deps.environment, gen.config);
  const validated = await validateTasks(deps, {
    candidates: seeds,
    knownFingerprints: heldout.map((t) => t.fingerprint),
  });
  const invalid = validated.tasks.find((t) => t.validation.status !== "valid");
  if (invalid) throw new Error(`seed task ${invalid.id} is invalid: ${invalid.validation.reason}`);
  const seedTasks = validated.tasks.map((t) => ({
    ...t,
    review: { status: "approved" as const, by: "system", note: "seed pool" },
  }));
  // A remote environment has no in-process world to clone demonstrations in: the async builder
  // plays them over the protocol and reaches the same base policy.
  const base = httpEnvironmentOf(gen.config)
    ? await createBasePolicyAsync(deps.environment, gen.config)
    : createBasePolicy(deps.environment, gen.config);
  await commitStage(ctx, gen, "SEED", async (client) => {
    await insertTasks(client, { runId: gen.runId, generationId: gen.id, tasks: heldout });
    await insertTasks(client, { runId: gen.runId, generationId: gen.id, tasks: seedTasks });
    await saveCheckpoint(client, { runId: gen.runId, generationId: gen.id, checkpoint: base });
  });
}

/**
 * ROLLOUT and EVALUATE fan out into batch jobs that any worker may take. The stage job creates the
 * batches once; the batch that finishes last re-enqueues the stage job, which then sees every
 * batch done and finishes the stage.
 */
async function batchedStage(ctx: RoundContext, gen: Claimed, stage: "ROLLOUT" | "EVALUATE") {
  const { rows: batches } = await ctx.pool.query<{ batchIndex: number; doneAt: Date | null }>(
    `SELECT "batchIndex", "doneAt" FROM "StageBatch" WHERE "generationId" = $1 AND stage = $2::"Stage"`,
    [gen.id, stage],
  );
  if (batches.length === 0) {
    const items = await batchItems(ctx, gen, stage);
    const size = stage === "ROLLOUT" ? ROLLOUT_SLOTS_PER_BATCH : EVAL_TASKS_PER_BATCH;
    const chunks: number[][] = [];
    for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
    await withTransaction(ctx.pool, async (client) => {
      // Lock the generation: a duplicate stage job waits here and then finds the batches made.
      const locked = await client.query(
        `SELECT 1 FROM "Generation" WHERE id = $1 AND attempt = $2 AND stage = $3::"Stage"
            AND status = 'RUNNING' FOR UPDATE`,
        [gen.id, gen.attempt, stage],
      );
      if (locked.rowCount !== 1) return;
      const exists = await client.query(
        `SELECT 1 FROM "StageBatch" WHERE "generationId" = $1 AND stage = $2::"Stage" LIMIT 1`,
        [gen.id, stage],
      );
      if (exists.rowCount === 1) return;
      await client.query(
        `INSERT INTO "StageBatch" ("generationId", stage, "batchIndex", items)
         SELECT $1, $2::"Stage", ordinality - 1, ARRAY(SELECT jsonb_array_elements_text(chunk)::int)
           FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS c(chunk, ordinality)`,
        [gen.id, stage, JSON.stringify(chunks)],
      );
      await client.query(
        `UPDATE "Generation" SET progress = jsonb_set(progress, ARRAY[$2::text],
            coalesce(progress -> $2::text, '{}'::jsonb) || jsonb_build_object('done', 0, 'total', $3::int))
          WHERE id = $1`,
        [gen.id, stage, chunks.length],
      );
      await enqueueRolloutBatches(
        ctx.boss,
        client,
        chunks.map((_, batchIndex) => ({ generationId: gen.id, attempt: gen.attempt, batchIndex })),
        chunks.map((chunk) => batchExpiry(gen.config, stage, chunk.length)),
      );
    });
    if (chunks.length > 0) return;
  } else if (batches.some((batch) => batch.doneAt === null)) {
    // A retry (after a crash or a resume): hand the unfinished batches out again. Doubles are
    // harmless: a finished batch ignores its job, and rows are unique.
    const unfinished = batches.filter((batch) => batch.doneAt === null);
    const size = stage === "ROLLOUT" ? ROLLOUT_SLOTS_PER_BATCH : EVAL_TASKS_PER_BATCH;
    await withTransaction(ctx.pool, (client) =>
      enqueueRolloutBatches(
        ctx.boss,
        client,
        unfinished.map((batch) => ({
          generationId: gen.id,
          attempt: gen.attempt,
          batchIndex: batch.batchIndex,
        })),
        unfinished.map(() => batchExpiry(gen.config, stage, size)),
      ),
    );
    return;
  }
  await (stage === "ROLLOUT" ? finishRollout(ctx, gen) : finishEvaluate(ctx, gen));
}

/** Episodes in a batch of `items` slots (× G for training) sized against the agent's limits. */
function batchExpiry(config: RunConfig, stage: "ROLLOUT" | "EVALUATE", items: number) {
  return rolloutBatchExpirySeconds(config, stage === "ROLLOUT" ? items * config.groupSize : items);
}

async function batchItems(ctx: RoundContext, gen: Claimed, stage: "ROLLOUT" | "EVALUATE") {
  if (stage === "EVALUATE") {
    const { rows } = await ctx.pool.query<{ id: number }>(
      `SELECT id FROM "Task" WHERE "runId" = $1 AND split = 'HELDOUT' ORDER BY id`,
      [gen.runId],
    );
    return rows.map((row) => row.id);
  }
  const { rows } = await ctx.pool.query<{ position: number }>(
    `SELECT position FROM "PoolEntry" WHERE "generationId" = $1 ORDER BY position`,
    [gen.previousId],
  );
  return rows.map((row) => row.position);
}

/**
 * Entry point of a rollout-batch job. A batch that cannot run for a reason a retry will not fix
 * (a connection that does not exist, an environment server answering errors) fails the round
 * with that reason, as a stage does, instead of being retried until the queue gives up silently.
 */
export async function runRolloutJob(ctx: RoundContext, job: RolloutJob): Promise<void> {
  try {
    await rolloutJob(ctx, job);
  } catch (error) {
    if (isRetryable(error)) throw error;
    const { rows } = await ctx.pool.query<{ stage: Stage }>(
      `SELECT stage FROM "Generation" WHERE id = $1`,
      [job.generationId],
    );
    if (!rows[0]) return;
    await markFailed(ctx.pool, { id: job.generationId, attempt: job.attempt, ...rows[0] }, error);
  }
}

async function rolloutJob(ctx: RoundContext, job: RolloutJob): Promise<void> {
  const { rows } = await ctx.pool.query<{
    runId: number;
    index: number;
    stage: Stage;
    config: unknown;
    environment: string;
    items: number[];
    doneAt: Date | null;
    previousId: number | null;
  }>(
    `SELECT g."runId", g.index, g.stage, r.config, r.environment, b.items, b."doneAt",
            (SELECT p.id FROM "Generation" p WHERE p."runId" = g."runId" AND p.index = g.index - 1) AS "previousId"
       FROM "Generation" g
       JOIN "Run" r ON r.id = g."runId"
       JOIN "StageBatch" b ON b."generationId" = g.id AND b.stage = g.stage AND b."batchIndex" = $3
      WHERE g.id = $1 AND g.attempt = $2 AND g.status = 'RUNNING'`,
    [job.generationId, job.attempt, job.batchIndex],
  );
  const batch = rows[0];
  if (!batch || batch.doneAt) return;
  if (batch.stage !== "ROLLOUT" && batch.stage !== "EVALUATE") return;
  const config = parseRunConfig(batch.config);
  const deps = await depsOf(ctx, config, batch.runId);

  const isTrain = batch.stage === "ROLLOUT";
  // Training rollouts: pool g by policy g, stored under generation g. Evaluation: policy g+1.
  const policyVersion = isTrain ? batch.index - 1 : batch.index;
  const trajectoryGenerationId = isTrain ? batch.previousId! : job.generationId;
  const policy = await loadCheckpoint(ctx.pool, { runId: batch.runId, version: policyVersion });

  let items: { task: Task; sampleIndices: number[] }[];
  const dbIdByKey = new Map<string, number>();
  if (isTrain) {
    const pool = await loadPool(ctx.pool, batch.previousId!);
    const stored = await loadTasks(ctx.pool, {
      runId: batch.runId,
      environment: batch.environment,
      filter: { ids: pool.map((slot) => slot.taskId) },
    });
    const byDbId = new Map(stored.map((s) => [s.dbId, s]));
    const keys = pool.map((slot) => byDbId.get(slot.taskId)!.task.id);
    const plan = planRollouts(keys, config.groupSize);
    const wanted = new Set(batch.items);
    items = pool
      .map((slot, i) => ({ slot, plan: plan[i]! }))
      .filter(({ slot }) => wanted.has(slot.position))
      .map(({ slot, plan: item }) => ({
        task: byDbId.get(slot.taskId)!.task,
        sampleIndices: item.sampleIndices,
      }));
    for (const s of stored) dbIdByKey.set(s.task.id, s.dbId);
  } else {
    const stored = await loadTasks(ctx.pool, {
      runId: batch.runId,
      environment: batch.environment,
      filter: { ids: batch.items },
    });
    items = stored.map((s) => ({ task: s.task, sampleIndices: [0] }));
    for (const s of stored) dbIdByKey.set(s.task.id, s.dbId);
  }

  const trajectories = await rolloutBatch(deps, {
    runSeed: config.seed,
    generation: policyVersion,
    purpose: isTrain ? "train" : "eval",
    policy,
    temperature: isTrain ? config.rolloutTemperature : config.evalTemperature,
    items,
  });

  await withTransaction(ctx.pool, async (client) => {
    // Serializes batch completions of this generation, so exactly one sees the last one finish.
    const locked = await client.query(
      `SELECT 1 FROM "Generation" WHERE id = $1 AND attempt = $2 AND status = 'RUNNING'
          AND stage = $3::"Stage" FOR UPDATE`,
      [job.generationId, job.attempt, batch.stage],
    );
    if (locked.rowCount !== 1) return;
    await insertTrajectories({
      db: client,
      rows: trajectories.map((t) => toTrajectoryRow(t, trajectoryGenerationId, dbIdByKey)),
    });
    const marked = await client.query(
      `UPDATE "StageBatch" SET "doneAt" = now()
        WHERE "generationId" = $1 AND stage = $2::"Stage" AND "batchIndex" = $3 AND "doneAt" IS NULL`,
      [job.generationId, batch.stage, job.batchIndex],
    );
    if (marked.rowCount !== 1) return;
    const { rows: remaining } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "StageBatch"
        WHERE "generationId" = $1 AND stage = $2::"Stage" AND "doneAt" IS NULL`,
      [job.generationId, batch.stage],
    );
    await client.query(
      `UPDATE "Generation" SET progress = jsonb_set(progress, ARRAY[$2::text],
          coalesce(progress -> $2::text, '{}'::jsonb)
          || jsonb_build_object('done', coalesce((progress -> $2::text ->> 'done')::int, 0) + 1))
        WHERE id = $1`,
      [job.generationId, batch.stage],
    );
    if (remaining[0]!.count === 0) {
      await enqueueStage(ctx.boss, client, {
        generationId: job.generationId,
        attempt: job.attempt,
      });
    }
  });
}

function toTrajectoryRow(t: Trajectory, generationId: number, dbIdByKey: Map<string, number>) {
  return {
    generationId,
    taskId: dbIdByKey.get(t.taskId)!,
    purpose: t.purpose === "eval" ? ("EVAL" as const) : ("TRAIN" as const),
    sampleIndex: t.sampleIndex,
    steps: t.steps,
    reward: t.reward,
    success: t.success,
    stepCount: t.stepCount,
    meanEntropy: t.meanEntropy,
    advantage: null,
    sideEffect: t.sideEffect,
    policyVersion: t.policyVersion,
    answer: t.answer,
    endReason: t.endReason,
    failure: t.failure,
    error: t.error ?? null,
    promptTokens: t.usage?.promptTokens ?? null,
    completionTokens: t.usage?.completionTokens ?? null,
  };
}

type PoolSlot = { position: number; taskId: number };

async function loadPool(db: Pick<PoolClient, "query">, generationId: number): Promise<PoolSlot[]> {
  const { rows } = await db.query<PoolSlot>(
    `SELECT position, "taskId" FROM "PoolEntry" WHERE "generationId" = $1 ORDER BY position`,
    [generationId],
  );
  return rows;
}

async function loadTrainTasks(ctx: RoundContext, gen: Claimed): Promise<StoredTask[]> {
  return loadTasks(ctx.pool, {
    runId: gen.runId,
    environment: gen.environment,
    filter: { split: "TRAIN" },
  });
}

/** Per skill × level counts of one generation's trajectories of one purpose, for the charts. */
async function writeSkillStats(
  client: PoolClient,
  generationId: number,
  purpose: "TRAIN" | "EVAL",
): Promise<void> {
  await client.query(
    `INSERT INTO "SkillStat" ("generationId", split, skill, level, attempts, successes, "rewardSum", "envSteps")
     SELECT $1, $3::"Split", t.skill, t.level, count(*), count(*) FILTER (WHERE tr.success),
            sum(tr.reward), sum(tr."stepCount")
       FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
      WHERE tr."generationId" = $1 AND tr.purpose = $2::"TrajectoryPurpose"
      GROUP BY t.skill, t.level
     ON CONFLICT ("generationId", split, skill, level) DO UPDATE
        SET attempts = EXCLUDED.attempts, successes = EXCLUDED.successes,
            "rewardSum" = EXCLUDED."rewardSum", "envSteps" = EXCLUDED."envSteps"`,
    [generationId, purpose, purpose === "TRAIN" ? "TRAIN" : "HELDOUT"],
  );
}

async function finishRollout(ctx: RoundContext, gen: Claimed): Promise<void> {
  const previousId = gen.previousId!;
  const trajectories = await loadTrajectories(ctx.pool, {
    generationId: previousId,
    purpose: "TRAIN",
  });
  const stored = await loadTrainTasks(ctx, gen);
  const tasksById = indexTasks(stored.map((s) => s.task));
  const outcomes = summarizeGroups(tasksById, trajectories);
  const measured = measureDifficulty(
    stored.map((s) => s.task),
    outcomes,
    gen.index - 1,
  ).filter((task, i) => task.measuredDifficulty !== stored[i]!.task.measuredDifficulty);
  const dbIdByKey = new Map(stored.map((s) => [s.task.id, s.dbId]));
  await commitStage(ctx, gen, "ROLLOUT", async (client) => {
    await client.query(
      `UPDATE "Task" t SET "measuredDifficulty" = m.d, "measuredByPolicyVersion" = m.v
           FROM jsonb_to_recordset($1::jsonb) AS m(id int, d float8, v int)
          WHERE t.id = m.id AND t."measuredDifficulty" IS NULL`,
      [
        JSON.stringify(
          measured.map((task) => ({
            id: dbIdByKey.get(task.id),
            d: task.measuredDifficulty,
            v: task.measuredByPolicyVersion,
          })),
        ),
      ],
    );
    await writeSkillStats(client, previousId, "TRAIN");
    await refreshDataStats(client, previousId);
    await client.query(
      `UPDATE "Generation" SET "trainRollouts" = $2, "trainEnvSteps" = $3 WHERE id = $1`,
      [gen.id, trajectories.length, trajectories.reduce((sum, t) => sum + t.stepCount, 0)],
    );
  });
}

async function trainStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const deps = await depsOf(ctx, gen.config, gen.runId);
  const trajectories = await loadTrajectories(ctx.pool, {
    generationId: gen.previousId!,
    purpose: "TRAIN",
  });
  const tasksById = indexTasks((await loadTrainTasks(ctx, gen)).map((s) => s.task));
  const [policy, base] = await Promise.all([
    loadCheckpoint(ctx.pool, { runId: gen.runId, version: gen.index - 1 }),
    loadCheckpoint(ctx.pool, { runId: gen.runId, version: 0 }),
  ]);
  const trained = await trainPolicy(deps, {
    policy,
    base,
    groups: buildTrainingGroups(tasksById, trajectories, gen.config.groupSize),
    settings: gen.config.trainerSettings,
  });
  await commitStage(ctx, gen, "TRAIN", async (client) => {
    await saveCheckpoint(client, {
      runId: gen.runId,
      generationId: gen.id,
      checkpoint: trained.policy,
    });
    await client.query(
      `UPDATE "Generation" SET "policyVersion" = $2, "trainReport" = $3 WHERE id = $1`,
      [
        gen.id,
        trained.policy.version,
        JSON.stringify({
          ...trained.report,
          trainPassRate:
            trajectories.filter((t) => t.success).length / Math.max(1, trajectories.length),
        }),
      ],
    );
  });
}

/**
 * TRAIN with an external trainer. The first delivery writes the training data, issues a one-time
 * callback token and a deadline job in one transaction, then starts the trainer; the generation
 * stays RUNNING in TRAIN, marked as waiting, until the trainer reports (trainer-callback.ts
 * advances it) or the deadline job finds no report and fails it. Later deliveries of the same
 * attempt (the deadline job, a duplicate) never start the trainer twice.
 */
async function externalTrainStage(
  ctx: RoundContext,
  gen: Claimed,
  trainer: ExternalTrainerConfig,
): Promise<void> {
  const { rows: issued } = await ctx.pool.query<{
    usedAt: Date | null;
    deadline: Date;
    isExpired: boolean;
  }>(
    `SELECT "usedAt", deadline, deadline <= now() AS "isExpired" FROM "TrainerCallback"
      WHERE "generationId" = $1 AND attempt = $2`,
    [gen.id, gen.attempt],
  );
  const call = issued[0];
  if (call) {
    if (call.usedAt) return;
    if (call.isExpired) {
      await failExternalTraining(
        ctx.pool,
        gen,
        `external trainer did not report a checkpoint within ${describeTimeout(trainer.timeoutMinutes)}`,
      );
      return;
    }
    // Delivered before the deadline (a duplicate, or a clock ahead of the database's): look again
    // just after it.
    await withTransaction(ctx.pool, (client) =>
      enqueueStageAt(
        ctx.boss,
        client,
        { generationId: gen.id, attempt: gen.attempt },
        new Date(call.deadline.getTime() + 1000),
      ),
    );
    return;
  }

  const trajectories = await loadTrajectories(ctx.pool, {
    generationId: gen.previousId!,
    purpose: "TRAIN",
  });
  const tasksById = indexTasks((await loadTrainTasks(ctx, gen)).map((s) => s.task));
  const [current, base, meta] = await Promise.all([
    loadStoredCheckpoint(ctx.pool, { runId: gen.runId, version: gen.index - 1 }),
    loadStoredCheckpoint(ctx.pool, { runId: gen.runId, version: 0 }),
    ctx.pool.query<{ slug: string; deadline: Date }>(
      `SELECT slug, now() + make_interval(secs => $2) AS deadline FROM "Run" WHERE id = $1`,
      [gen.runId, trainer.timeoutMinutes * 60],
    ),
  ]);
  const { slug, deadline } = meta.rows[0]!;
  const job = await prepareTrainingJob({
    setup: ctx.externalTrainer ?? defaultExternalTrainerSetup(),
    run: { id: gen.runId, slug },
    generation: gen.index,
    attempt: gen.attempt,
    config: gen.config,
    groups: buildTrainingGroups(tasksById, trajectories, gen.config.groupSize),
    current: { checkpoint: current.weights, uri: current.uri, version: gen.index - 1 },
    base: { checkpoint: base.weights, uri: base.uri, version: 0 },
    deadline,
  });
  const webhookKey = trainer.webhook
    ? await connectionKey(trainer.webhook.connection, "trainer-webhook", trainer.webhook.url, {
        db: ctx.pool,
        runId: gen.runId,
        secretKey: ctx.secretKey,
      })
    : null;

  const { token, hash } = newCallbackToken();
  const isIssued = await withTransaction(ctx.pool, async (client) => {
    const locked = await client.query(
      `SELECT 1 FROM "Generation" WHERE id = $1 AND attempt = $2 AND stage = 'TRAIN'
          AND status = 'RUNNING' FOR UPDATE`,
      [gen.id, gen.attempt],
    );
    if (locked.rowCount !== 1) return false;
    const inserted = await client.query(
      `INSERT INTO "TrainerCallback" ("generationId", attempt, "tokenHash", deadline, "dataPath")
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("generationId", attempt) DO NOTHING`,
      [gen.id, gen.attempt, hash, deadline, job.manifest.trainingData.path],
    );
    if (inserted.rowCount !== 1) return false;
    await client.query(
      `UPDATE "Generation" SET progress = jsonb_set(progress, '{TRAIN}',
          coalesce(progress -> 'TRAIN', '{}'::jsonb)
          || jsonb_build_object('waiting', 'external trainer', 'deadline', $2::text))
        WHERE id = $1`,
      [gen.id, deadline.toISOString()],
    );
    await enqueueStageAt(
      ctx.boss,
      client,
      { generationId: gen.id, attempt: gen.attempt },
      deadline,
    );
    return true;
  });
  if (!isIssued) return;

  const started = await launchExternalTrainer({
    trainer,
    job,
    token,
    webhookKey,
    onExit: (outcome) => {
      if (outcome.ok) return;
      failExternalTraining(ctx.pool, gen, outcome.reason).catch(() => {
        // The worker is shutting down; the deadline job fails the round instead.
      });
    },
  });
  if (!started.ok) await failExternalTraining(ctx.pool, gen, started.reason);
}

/** Fails a generation still waiting in TRAIN without a report; a reported one is left alone. */
async function failExternalTraining(
  pool: Pool,
  gen: Pick<Claimed, "id" | "attempt">,
  reason: string,
): Promise<void> {
  await pool.query(
    `UPDATE "Generation" g SET status = 'FAILED', error = $3, "finishedAt" = now()
      WHERE g.id = $1 AND g.attempt = $2 AND g.status = 'RUNNING' AND g.stage = 'TRAIN'
        AND NOT EXISTS (SELECT 1 FROM "TrainerCallback" c WHERE c."generationId" = g.id
                           AND c.attempt = g.attempt AND c."usedAt" IS NOT NULL)`,
    [gen.id, gen.attempt, `TRAIN: ${reason}`.slice(0, 4000)],
  );
}

async function finishEvaluate(ctx: RoundContext, gen: Claimed): Promise<void> {
  const heldout = await loadTasks(ctx.pool, {
    runId: gen.runId,
    environment: gen.environment,
    filter: { split: "HELDOUT" },
  });
  const trajectories = await loadTrajectories(ctx.pool, { generationId: gen.id, purpose: "EVAL" });
  const { rows: _rows, ...summary } = summarizeHeldout(
    gen.index,
    heldout.map((s) => s.task),
    trajectories,
  );
  await commitStage(ctx, gen, "EVALUATE", async (client) => {
    await client.query(`UPDATE "Generation" SET heldout = $2 WHERE id = $1`, [
      gen.id,
      JSON.stringify(summary),
    ]);
    await writeSkillStats(client, gen.id, "EVAL");
  });
}

async function signalsStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const deps = await depsOf(ctx, gen.config, gen.runId);
  const g = gen.index - 1;
  const trajectories = await loadTrajectories(ctx.pool, {
    generationId: gen.previousId!,
    purpose: "TRAIN",
  });
  const tasksById = indexTasks((await loadTrainTasks(ctx, gen)).map((s) => s.task));
  const history = gen.previousHistory ?? createHistory();
  const outcomes = summarizeGroups(tasksById, trajectories);
  const forgetting = detectForgetting(g, outcomes, trajectories, history, {
    passThreshold: gen.config.signals.passThreshold,
  }).filter((s) => s.taskId !== null);
  const signals =
    gen.config.mode === "coevolve"
      ? extractSignals({
          generation: g,
          tasksById,
          trajectories,
          history,
          catalog: deps.environment.describe(),
          options: { ...gen.config.signals },
        })
      : [];
  const nextHistory = updateHistory(
    history,
    g,
    outcomes,
    countUsage(g, tasksById, trajectories),
    gen.config.signals.rareWindow,
  );
  await commitStage(
    ctx,
    gen,
    "SIGNALS",
    async (client) => {
      await insertSignals(client, { runId: gen.runId, generationId: gen.previousId!, signals });
      await client.query(
        `UPDATE "Generation" SET history = $2,
            "trainReport" = coalesce("trainReport", '{}'::jsonb) || jsonb_build_object('forgettingEvents', $3::int)
          WHERE id = $1`,
        [gen.id, JSON.stringify(nextHistory), forgetting.length],
      );
    },
    { extra: { signals: signals.length } },
  );
}

async function synthesizeStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const deps = await depsOf(ctx, gen.config, gen.runId);
  const signals = await loadSignals(ctx.pool, { generationId: gen.previousId! });
  const tasksById = indexTasks((await loadTrainTasks(ctx, gen)).map((s) => s.task));
  // Only an LLM synthesizer reads the trajectories behind the signals (its prompt shows them);
  // the rule synthesizer does not, so the builtin path skips the read.
  const trajectories = llmSynthesizerOf(gen.config)
    ? await loadTrajectories(ctx.pool, { generationId: gen.previousId!, purpose: "TRAIN" })
    : undefined;
  const candidates = await synthesizeTasks(deps, {
    generation: gen.index,
    runSeed: gen.config.seed,
    signals,
    tasksById,
    trajectories,
    config: gen.config,
  });
  await commitStage(ctx, gen, "SYNTHESIZE", async (client) => {
    const before = await countBorn(client, gen.id);
    await insertTasks(client, { runId: gen.runId, generationId: gen.id, tasks: candidates });
    const inserted = (await countBorn(client, gen.id)) - before;
    // A candidate whose fingerprint the run already has IS that task: it is counted as a
    // duplicate here rather than stored twice (task keys and fingerprints are unique per run).
    // An LLM synthesizer's dropped answers (timeouts, malformed output) are kept with reasons.
    const drops = droppedCandidates(deps.synthesizer);
    return {
      candidates: candidates.length,
      duplicates: candidates.length - inserted,
      ...(drops.length > 0
        ? {
            dropped: drops.length,
            dropReasons: drops.slice(0, 20).map((d) => `${d.signalKind}: ${d.reason}`),
          }
        : {}),
    };
  });
}

async function countBorn(client: PoolClient, generationId: number): Promise<number> {
  const { rows } = await client.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "Task" WHERE "generationId" = $1`,
    [generationId],
  );
  return rows[0]!.count;
}

async function validateStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const deps = await depsOf(ctx, gen.config, gen.runId);
  const born = await loadTasks(ctx.pool, {
    runId: gen.runId,
    environment: gen.environment,
    filter: { bornInGenerationId: gen.id },
  });
  const pending = born.filter((s) => s.task.validation.status === "pending");
  const { rows: known } = await ctx.pool.query<{ fingerprint: string }>(
    `SELECT fingerprint FROM "Task" WHERE "runId" = $1 AND "generationId" <> $2`,
    [gen.runId, gen.id],
  );
  const validated = await validateTasks(deps, {
    candidates: pending.map((s) => s.task),
    knownFingerprints: known.map((row) => row.fingerprint),
  });
  const dbIdByKey = new Map(born.map((s) => [s.task.id, s.dbId]));
  await commitStage(
    ctx,
    gen,
    "VALIDATE",
    async (client) => {
      await client.query(
        `UPDATE "Task" t SET "validationStatus" = v.status::"ValidationStatus", "validationReason" = v.reason
           FROM jsonb_to_recordset($1::jsonb) AS v(id int, status text, reason text)
          WHERE t.id = v.id`,
        [
          JSON.stringify(
            validated.tasks.map((task) => ({
              id: dbIdByKey.get(task.id),
              status: task.validation.status.toUpperCase(),
              reason: task.validation.reason,
            })),
          ),
        ],
      );
    },
    {
      extra: {
        valid: validated.tasks.filter((t) => t.validation.status === "valid").length,
        invalid: validated.tasks.filter((t) => t.validation.status === "invalid").length,
        envSteps: validated.envSteps,
      },
    },
  );
}

async function curateStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const born = await loadTasks(ctx.pool, {
    runId: gen.runId,
    environment: gen.environment,
    filter: { bornInGenerationId: gen.id },
  });
  const curated = curateTasks(
    born.map((s) => s.task),
    gen.config.review,
  );
  const dbIdByKey = new Map(born.map((s) => [s.task.id, s.dbId]));
  const isWaitingForPeople = curated.some((task) => task.review.status === "pending");
  await commitStage(
    ctx,
    gen,
    "CURATE",
    async (client) => {
      await client.query(
        `UPDATE "Task" t SET "reviewStatus" = c.status::"ReviewStatus", reviewer = c.by,
                "reviewNote" = c.note, "reviewedAt" = CASE WHEN c.status = 'PENDING' THEN NULL ELSE now() END
           FROM jsonb_to_recordset($1::jsonb) AS c(id int, status text, by text, note text)
          WHERE t.id = c.id AND t."reviewStatus" = 'PENDING'`,
        [
          JSON.stringify(
            curated.map((task) => ({
              id: dbIdByKey.get(task.id),
              status: task.review.status.toUpperCase(),
              by: task.review.by,
              note: task.review.note,
            })),
          ),
        ],
      );
      await refreshDataStats(client, gen.id);
    },
    isWaitingForPeople ? { status: "AWAITING_REVIEW" } : {},
  );
}

async function nextPoolStage(ctx: RoundContext, gen: Claimed): Promise<void> {
  const stored = await loadTrainTasks(ctx, gen);
  const tasks = stored.map((s) => s.task);
  const dbIdByKey = new Map(stored.map((s) => [s.task.id, s.dbId]));
  let pool: string[];
  if (gen.index === 0) {
    pool = selectNextPool({
      mode: "static",
      runSeed: gen.config.seed,
      generation: 0,
      tasksPerRound: gen.config.tasksPerRound,
      replayFraction: gen.config.replayFraction,
      newTasks: [],
      earlierTasks: tasks,
      seedTaskIds: tasks.map((t) => t.id),
      history: createHistory(),
      signals: [],
    });
  } else {
    const signals = await loadSignals(ctx.pool, { generationId: gen.previousId! });
    const born = tasks.filter((t) => t.bornGeneration === gen.index);
    const earlier = tasks.filter(
      (t) => t.bornGeneration !== gen.index && t.review.status === "approved",
    );
    pool = selectNextPool({
      mode: gen.config.mode,
      runSeed: gen.config.seed,
      generation: gen.index,
      tasksPerRound: gen.config.tasksPerRound,
      replayFraction: gen.config.replayFraction,
      newTasks: rankApproved(born, signals),
      earlierTasks: earlier,
      seedTaskIds: tasks.filter(isSeedPoolTask).map((t) => t.id),
      history: gen.history ?? createHistory(),
      signals,
    });
  }
  await commitStage(ctx, gen, "NEXT_POOL", async (client) => {
    await client.query(
      `INSERT INTO "PoolEntry" ("generationId", position, "taskId")
       SELECT $1, ordinality - 1, id FROM unnest($2::int[]) WITH ORDINALITY AS p(id, ordinality)
       ON CONFLICT DO NOTHING`,
      [gen.id, pool.map((key) => dbIdByKey.get(key)!)],
    );
    await refreshDataStats(client, gen.id);
  });
}

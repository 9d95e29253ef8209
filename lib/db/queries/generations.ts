import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import type { GenerationStatus, RunMode, RunStatus, Stage } from "@/lib/generated/prisma/enums";
import { stagesFor } from "@/lib/jobs/rounds";
import type { RunConfig } from "@/lib/validations/run-config";
import { getRunBySlug, type RunDetail } from "./runs";

/**
 * Reads for a run's overview: its generation timeline and the live progress of its latest rounds.
 * Raw SQL so only the rendered scalars leave Postgres (held-out success is one number inside the
 * heldout JSON; the run history and train report JSON stay behind). Dates are ISO strings: the
 * same values go to the page, the client island and the polling endpoint's JSON.
 */

export type GenerationRow = {
  index: number;
  status: GenerationStatus;
  stage: Stage;
  error: string | null;
  /** Share of held-out episodes solved by this generation's policy, 0–1; null until evaluated. */
  heldoutSuccess: number | null;
  policyVersion: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

/**
 * `pending`: a later stage; `queued`: the current stage, waiting for a worker; `waiting`: for
 * people (review) or for something outside (an external trainer: see `waitingFor`).
 */
export type StageState =
  "done" | "running" | "queued" | "pending" | "waiting" | "failed" | "stopped";

export type StageProgress = {
  stage: Exclude<Stage, "DONE">;
  state: StageState;
  /** Units finished (rollout or evaluation batches; 1 for single-step stages once done). */
  done: number;
  /** Units in the stage; null while a single-step stage has not reported any. */
  total: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** What a waiting stage waits for ("external trainer"); null otherwise. */
  waitingFor: string | null;
  /** When the wait times out (ISO); null when it does not. */
  deadline: string | null;
};

export type GenerationProgress = GenerationRow & { stages: StageProgress[] };

export type RunProgress = {
  slug: string;
  /** When this was read (ISO): clients treat it as fresh for a moment instead of re-asking. */
  readAt: string;
  runStatus: RunStatus;
  /** True while the latest generation is queued or running: what the page polls for. */
  isRoundActive: boolean;
  /** Newest first. */
  generations: GenerationProgress[];
};

type Queryable = Pick<Pool, "query">;

const isActiveStatus = (status: GenerationStatus | undefined) =>
  status === "QUEUED" || status === "RUNNING";

type RawGeneration = Omit<GenerationRow, "createdAt" | "startedAt" | "finishedAt"> & {
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const GENERATION_COLUMNS = `g.index, g.status, g.stage, g.error, g."policyVersion",
  (g.heldout ->> 'success')::float8 AS "heldoutSuccess",
  g."createdAt", g."startedAt", g."finishedAt"`;

function toRow(raw: RawGeneration): GenerationRow {
  return {
    index: raw.index,
    status: raw.status,
    stage: raw.stage,
    error: raw.error,
    heldoutSuccess: raw.heldoutSuccess,
    policyVersion: raw.policyVersion,
    createdAt: raw.createdAt.toISOString(),
    startedAt: raw.startedAt?.toISOString() ?? null,
    finishedAt: raw.finishedAt?.toISOString() ?? null,
  };
}

export type ListGenerationsOptions = { runId: number; db?: Queryable };

/** Every generation of a run, newest first (one row per round: at most a few thousand). */
export async function listGenerations(options: ListGenerationsOptions): Promise<GenerationRow[]> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<RawGeneration>(
    `SELECT ${GENERATION_COLUMNS} FROM "Generation" g WHERE g."runId" = $1 ORDER BY g.index DESC`,
    [options.runId],
  );
  return rows.map(toRow);
}

type ProgressEntry = {
  done?: unknown;
  total?: unknown;
  startedAt?: unknown;
  finishedAt?: unknown;
  /** Set by a stage that waits on something outside the worker (lib/jobs/rounds.ts). */
  waiting?: unknown;
  deadline?: unknown;
};

const asCount = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const asTime = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The state of the stage that is current (neither finished nor yet to come). */
function currentStageState(status: GenerationStatus): StageState {
  switch (status) {
    case "QUEUED":
      return "queued";
    case "RUNNING":
      return "running";
    case "AWAITING_REVIEW":
      return "waiting";
    case "FAILED":
      return "failed";
    case "CANCELLED":
      return "stopped";
    case "DONE":
      return "done";
  }
}

/**
 * One entry per stage this generation goes through (lib/jobs/rounds.ts decides which), from the
 * `progress` JSON the stages write: `{ STAGE: { done, total, startedAt, finishedAt, … } }`.
 */
export function stageProgressOf(
  generation: Pick<GenerationRow, "index" | "status" | "stage">,
  mode: RunMode,
  progress: Record<string, ProgressEntry | undefined>,
): StageProgress[] {
  const stages = stagesFor(generation.index, mode.toLowerCase() as RunConfig["mode"]).filter(
    (stage): stage is Exclude<Stage, "DONE"> => stage !== "DONE",
  );
  const currentIndex =
    generation.stage === "DONE" ? stages.length : stages.indexOf(generation.stage as never);
  return stages.map((stage, i) => {
    const entry = progress[stage] ?? {};
    const finishedAt = asTime(entry.finishedAt);
    const total = asCount(entry.total);
    const isDone = finishedAt !== null || i < currentIndex || generation.status === "DONE";
    const waitingFor =
      !isDone && i === currentIndex && typeof entry.waiting === "string" ? entry.waiting : null;
    const state: StageState = isDone
      ? "done"
      : i === currentIndex
        ? waitingFor && generation.status === "RUNNING"
          ? "waiting"
          : currentStageState(generation.status)
        : "pending";
    return {
      stage,
      state,
      done: isDone ? (asCount(entry.done) ?? total ?? 1) : (asCount(entry.done) ?? 0),
      total: isDone ? (total ?? 1) : total,
      startedAt: asTime(entry.startedAt),
      finishedAt,
      waitingFor: state === "waiting" ? waitingFor : null,
      deadline: state === "waiting" && waitingFor ? asTime(entry.deadline) : null,
    };
  });
}

export type GetRunProgressOptions = {
  run: Pick<RunDetail, "id" | "slug" | "status" | "mode">;
  /** How many of the newest generations to include (the latest is the round in progress). */
  limit?: number;
  db?: Queryable;
};

/** What the round panel polls: the run's newest generations with their stages. */
export async function getRunProgress(options: GetRunProgressOptions): Promise<RunProgress> {
  const { run } = options;
  const db = options.db ?? getPool();
  const { rows } = await db.query<RawGeneration & { progress: Record<string, ProgressEntry> }>(
    `SELECT ${GENERATION_COLUMNS}, g.progress FROM "Generation" g
      WHERE g."runId" = $1 ORDER BY g.index DESC LIMIT $2`,
    [run.id, options.limit ?? 3],
  );
  const generations = rows.map((raw) => {
    const row = toRow(raw);
    return { ...row, stages: stageProgressOf(row, run.mode, raw.progress ?? {}) };
  });
  return {
    slug: run.slug,
    readAt: new Date().toISOString(),
    runStatus: run.status,
    isRoundActive: isActiveStatus(generations[0]?.status),
    generations,
  };
}

/** The same, looked up by slug (the polling endpoint); null for an unknown run. */
export async function getRunProgressBySlug(
  options: Omit<GetRunProgressOptions, "run"> & { slug: string },
): Promise<RunProgress | null> {
  const run = await getRunBySlug({ slug: options.slug });
  return run ? getRunProgress({ run, limit: options.limit, db: options.db }) : null;
}

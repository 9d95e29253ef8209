import type { RunConfig } from "../validations/run-config";
import type { EngineDeps } from "./engine";
import { createHistory, updateHistory } from "./history";
import { curateTasks } from "./curation/curate";
import { isSeedPoolTask, selectNextPool } from "./pool";
import { rolloutBatch } from "./rollout";
import { createBasePolicyAsync, generateEvaluationSet, generateSeedPool } from "./setup";
import { countUsage, detectForgetting, extractSignals, summarizeGroups } from "./signals";
import {
  buildTrainingGroups,
  evaluatePolicy,
  indexTasks,
  measureDifficulty,
  planRollouts,
  rankApproved,
  synthesizeTasks,
  trainPolicy,
  validateTasks,
} from "./stages";
import { computeGenerationStats } from "./stats";
import type {
  GenerationStats,
  HeldoutSummary,
  PolicyCheckpoint,
  RunHistory,
  Task,
  TrainReport,
} from "./types";

export type RunCounters = {
  trainRollouts: number;
  trainSteps: number;
  evalSteps: number;
  validationSteps: number;
  forgettingEvents: number;
  synthesized: number;
  invalid: number;
  approved: number;
};

/** Everything a run carries between rounds. Plain JSON: the job layer can persist and resume it. */
export type RunState = {
  config: RunConfig;
  /** The generation the next round runs: the current policy's version and the pool's generation. */
  generation: number;
  basePolicy: PolicyCheckpoint;
  policy: PolicyCheckpoint;
  /** Every training task of the run — seed and synthesized, any validation or review status. */
  tasks: Task[];
  /** The evaluation set (held-out, or dev when tuning). Never trained on. */
  heldout: Task[];
  pool: string[];
  history: RunHistory;
  heldoutHistory: HeldoutSummary[];
  stats: GenerationStats[];
  counters: RunCounters;
};

export type RoundReport = {
  generation: number;
  trainPassRate: number;
  train: TrainReport;
  heldout: HeldoutSummary;
  signals: Record<string, number>;
  synthesized: number;
  valid: number;
  approved: number;
  poolNew: number;
  forgettingEvents: number;
  trainSteps: number;
  elapsedMs: number;
};

export type InitOptions = { evaluationSplit?: "heldout" | "dev" };

/** Setup: held-out (or dev) set, validated seed pool, base policy, and its generation-0 evaluation. */
export async function initRun(
  config: RunConfig,
  deps: EngineDeps,
  options: InitOptions = {},
): Promise<RunState> {
  const heldout = await generateEvaluationSet(
    deps.environment,
    config,
    options.evaluationSplit ?? "heldout",
  );
  const seeds = await generateSeedPool(deps.environment, config);
  const validated = await validateTasks(deps, {
    candidates: seeds,
    knownFingerprints: heldout.map((t) => t.fingerprint),
  });
  const invalid = validated.tasks.filter((t) => t.validation.status !== "valid");
  if (invalid.length > 0) {
    throw new Error(`seed task ${invalid[0]!.id} is invalid: ${invalid[0]!.validation.reason}`);
  }
  const seedTasks = validated.tasks.map((t) => ({
    ...t,
    review: { status: "approved" as const, by: "system", note: "seed pool" },
  }));
  const basePolicy = await createBasePolicyAsync(deps.environment, config);
  const evaluation = await evaluatePolicy(deps, {
    runSeed: config.seed,
    generation: 0,
    policy: basePolicy,
    tasks: heldout,
    temperature: config.evalTemperature,
  });
  return {
    config,
    generation: 0,
    basePolicy,
    policy: basePolicy,
    tasks: seedTasks,
    heldout,
    pool: selectNextPool({
      mode: "static",
      runSeed: config.seed,
      generation: 0,
      tasksPerRound: config.tasksPerRound,
      replayFraction: config.replayFraction,
      newTasks: [],
      earlierTasks: seedTasks,
      seedTaskIds: seedTasks.map((t) => t.id),
      history: createHistory(),
      signals: [],
    }),
    history: createHistory(),
    heldoutHistory: [evaluation.summary],
    stats: [],
    counters: {
      trainRollouts: 0,
      trainSteps: 0,
      evalSteps: evaluation.summary.envSteps,
      validationSteps: validated.envSteps,
      forgettingEvents: 0,
      synthesized: 0,
      invalid: 0,
      approved: 0,
    },
  };
}

/**
 * One generation g → g+1: rollout → train → evaluate → signals → synthesize → validate → curate
 * → next pool. Static skips signals through curation; uniform synthesizes blind to signals.
 */
export async function runRound(
  state: RunState,
  deps: EngineDeps,
  now: () => number = () => 0,
): Promise<{ state: RunState; report: RoundReport }> {
  const started = now();
  const { config } = state;
  const g = state.generation;
  let tasks = state.tasks;
  let tasksById = indexTasks(tasks);

  const plan = planRollouts(state.pool, config.groupSize);
  const trajectories = await rolloutBatch(deps, {
    runSeed: config.seed,
    generation: g,
    purpose: "train",
    policy: state.policy,
    temperature: config.rolloutTemperature,
    items: plan.map((p) => ({ task: tasksById[p.taskId]!, sampleIndices: p.sampleIndices })),
  });
  const outcomes = summarizeGroups(tasksById, trajectories);
  const firstAttempted = new Set(
    outcomes.filter((o) => tasksById[o.taskId]?.measuredDifficulty === null).map((o) => o.taskId),
  );
  tasks = measureDifficulty(tasks, outcomes, state.policy.version);
  tasksById = indexTasks(tasks);

  const trained = await trainPolicy(deps, {
    policy: state.policy,
    base: state.basePolicy,
    groups: buildTrainingGroups(tasksById, trajectories, config.groupSize),
    settings: config.trainerSettings,
  });
  const evaluation = await evaluatePolicy(deps, {
    runSeed: config.seed,
    generation: g + 1,
    policy: trained.policy,
    tasks: state.heldout,
    temperature: config.evalTemperature,
  });

  const signalOptions = { ...config.signals };
  const forgetting = detectForgetting(g, outcomes, trajectories, state.history, {
    passThreshold: config.signals.passThreshold,
  }).filter((s) => s.taskId !== null);
  const signals =
    config.mode === "coevolve"
      ? extractSignals({
          generation: g,
          tasksById,
          trajectories,
          history: state.history,
          catalog: deps.environment.describe(),
          options: signalOptions,
        })
      : [];
  const history = updateHistory(
    state.history,
    g,
    outcomes,
    countUsage(g, tasksById, trajectories),
    config.signals.rareWindow,
  );

  let born: Task[] = [];
  let validationSteps = 0;
  if (config.mode !== "static") {
    const candidates = await synthesizeTasks(deps, {
      generation: g + 1,
      runSeed: config.seed,
      signals,
      tasksById,
      trajectories,
      config,
    });
    const validated = await validateTasks(deps, {
      candidates,
      knownFingerprints: [...tasks, ...state.heldout].map((t) => t.fingerprint),
    });
    validationSteps = validated.envSteps;
    born = curateTasks(validated.tasks, config.review);
  }
  const approvedNew = rankApproved(born, signals);
  const earlier = tasks.filter((t) => t.review.status === "approved");
  const pool = selectNextPool({
    mode: config.mode,
    runSeed: config.seed,
    generation: g + 1,
    tasksPerRound: config.tasksPerRound,
    replayFraction: config.replayFraction,
    newTasks: approvedNew,
    earlierTasks: earlier,
    seedTaskIds: tasks.filter(isSeedPoolTask).map((t) => t.id),
    history,
    signals,
  });
  const allTasks = [...tasks, ...born.filter((t) => !tasksById[t.id])];
  const trainSteps = trajectories.reduce((a, t) => a + t.stepCount, 0);
  const currentHeldout = state.heldoutHistory[state.heldoutHistory.length - 1];
  const stats = computeGenerationStats({
    generation: g,
    tasksById,
    trainTrajectories: trajectories,
    heldoutRows: currentHeldout?.generation === g ? currentHeldout.rows : [],
    bornTasks: tasks.filter((t) => t.bornGeneration === g && t.origin === "synthesized"),
    firstAttempted: tasks.filter((t) => firstAttempted.has(t.id)),
    signals,
  });
  const signalCounts: Record<string, number> = {};
  for (const s of signals) signalCounts[s.kind] = (signalCounts[s.kind] ?? 0) + 1;
  const poolNew = pool.filter((id) => approvedNew.some((t) => t.id === id)).length;

  const next: RunState = {
    ...state,
    generation: g + 1,
    policy: trained.policy,
    tasks: allTasks,
    pool,
    history,
    heldoutHistory: [...state.heldoutHistory, evaluation.summary],
    stats: [...state.stats, stats],
    counters: {
      trainRollouts: state.counters.trainRollouts + trajectories.length,
      trainSteps: state.counters.trainSteps + trainSteps,
      evalSteps: state.counters.evalSteps + evaluation.summary.envSteps,
      validationSteps: state.counters.validationSteps + validationSteps,
      forgettingEvents: state.counters.forgettingEvents + forgetting.length,
      synthesized: state.counters.synthesized + born.length,
      invalid:
        state.counters.invalid + born.filter((t) => t.validation.status === "invalid").length,
      approved: state.counters.approved + approvedNew.length,
    },
  };
  return {
    state: next,
    report: {
      generation: g,
      trainPassRate:
        trajectories.filter((t) => t.success).length / Math.max(1, trajectories.length),
      train: trained.report,
      heldout: evaluation.summary,
      signals: signalCounts,
      synthesized: born.length,
      valid: born.filter((t) => t.validation.status === "valid").length,
      approved: approvedNew.length,
      poolNew,
      forgettingEvents: forgetting.length,
      trainSteps,
      elapsedMs: now() - started,
    },
  };
}

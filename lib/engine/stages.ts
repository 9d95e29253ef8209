/**
 * The round's stages as plain-data functions. The job layer runs each as its own job and stores
 * the outputs between them; `runRound` (round.ts) chains them in memory for the CLI and tests.
 */
import type { RunConfig } from "../validations/run-config";
import { summarizeHeldout } from "./evaluation";
import type { EngineDeps } from "./engine";
import type { TrainingGroup } from "./interfaces";
import { rolloutBatch } from "./rollout";
import type {
  GroupOutcome,
  HeldoutSummary,
  PolicyCheckpoint,
  Signal,
  Task,
  TrainReport,
  Trajectory,
} from "./types";

export { rolloutBatch } from "./rollout";
export { extractSignals } from "./signals";
export { curateTasks } from "./curation/curate";
export { selectNextPool } from "./pool";
export { updateHistory } from "./history";

export type RolloutPlanItem = { taskId: string; sampleIndices: number[] };

/**
 * Stage 1 plan: one item per pool slot with its G sample indices. The k-th appearance of a task
 * in the pool gets samples k·G … k·G+G−1, so repeated tasks never reuse an episode seed. The job
 * layer may cut this list into batches any way it likes.
 */
export function planRollouts(pool: readonly string[], groupSize: number): RolloutPlanItem[] {
  const seen = new Map<string, number>();
  return pool.map((taskId) => {
    const k = seen.get(taskId) ?? 0;
    seen.set(taskId, k + 1);
    return {
      taskId,
      sampleIndices: Array.from({ length: groupSize }, (_, i) => k * groupSize + i),
    };
  });
}

/** Stage 2 input: trajectories grouped per (task, pool slot) = one GRPO group each. */
export function buildTrainingGroups(
  tasksById: Readonly<Record<string, Task>>,
  trajectories: readonly Trajectory[],
  groupSize: number,
): TrainingGroup[] {
  const groups = new Map<string, Trajectory[]>();
  for (const t of trajectories) {
    const key = `${t.taskId}#${Math.floor(t.sampleIndex / groupSize)}`;
    const list = groups.get(key) ?? [];
    list.push(t);
    groups.set(key, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, list]) => {
      const taskId = key.slice(0, key.lastIndexOf("#"));
      const task = tasksById[taskId];
      if (!task) throw new Error(`trajectories reference unknown task ${taskId}`);
      return { task, trajectories: list.sort((a, b) => a.sampleIndex - b.sampleIndex) };
    });
}

/** Stage 2: a training step from the current policy; returns the next checkpoint. */
export async function trainPolicy(
  deps: Pick<EngineDeps, "trainer">,
  input: {
    policy: PolicyCheckpoint;
    base: PolicyCheckpoint;
    groups: TrainingGroup[];
    settings: RunConfig["trainerSettings"];
  },
): Promise<{ policy: PolicyCheckpoint; report: TrainReport }> {
  return deps.trainer.train({
    policy: input.policy,
    base: input.base,
    groups: input.groups,
    settings: input.settings,
    nextVersion: input.policy.version + 1,
  });
}

/** Stage 3: the policy on the fixed evaluation set (held-out, or dev when tuning). */
export async function evaluatePolicy(
  deps: Pick<EngineDeps, "environment" | "agent">,
  input: {
    runSeed: number;
    generation: number;
    policy: PolicyCheckpoint;
    tasks: readonly Task[];
    temperature: number;
  },
): Promise<{ summary: HeldoutSummary; trajectories: Trajectory[] }> {
  const trajectories = await rolloutBatch(deps, {
    runSeed: input.runSeed,
    generation: input.generation,
    purpose: "eval",
    policy: input.policy,
    temperature: input.temperature,
    items: input.tasks.map((task) => ({ task, sampleIndices: [0] })),
  });
  return { summary: summarizeHeldout(input.generation, input.tasks, trajectories), trajectories };
}

/** Measured difficulty = 1 − pass rate of the first policy that attempted the task. */
export function measureDifficulty(
  tasks: readonly Task[],
  outcomes: readonly GroupOutcome[],
  policyVersion: number,
): Task[] {
  const byTask = new Map(outcomes.map((o) => [o.taskId, o]));
  return tasks.map((task) => {
    const o = byTask.get(task.id);
    if (!o || task.measuredDifficulty !== null) return task;
    return {
      ...task,
      measuredDifficulty: Math.round((1 - o.passRate) * 1000) / 1000,
      measuredByPolicyVersion: policyVersion,
    };
  });
}

/** Stage 4 is `extractSignals` (./signals); stage 7 `curateTasks`; stage 8 `selectNextPool`. */
export type { ExtractSignalsInput } from "./signals";

/** Stage 5: candidate tasks conditioned on signals (or uniform, for the control). */
export async function synthesizeTasks(
  deps: Pick<EngineDeps, "environment" | "synthesizer">,
  input: {
    generation: number;
    runSeed: number;
    signals: Signal[];
    tasksById: Record<string, Task>;
    /** The round's trajectories; those the signals point at go to the synthesizer. */
    trajectories?: readonly Trajectory[];
    config: Pick<RunConfig, "synthesisBudget" | "signalWeights" | "synthesis">;
  },
): Promise<Task[]> {
  const wanted = new Set(input.signals.map((s) => s.trajectoryId).filter((id) => id !== null));
  const trajectoriesById: Record<string, Trajectory> = {};
  for (const t of input.trajectories ?? []) if (wanted.has(t.id)) trajectoriesById[t.id] = t;
  return deps.synthesizer.synthesize({
    generation: input.generation,
    runSeed: input.runSeed,
    signals: input.signals,
    tasksById: input.tasksById,
    budget: input.config.synthesisBudget,
    weights: input.config.signalWeights,
    options: input.config.synthesis,
    environment: deps.environment,
    trajectoriesById,
  });
}

/** Stage 6: validation by execution, dropping duplicates of any earlier task (held-out included). */
export async function validateTasks(
  deps: Pick<EngineDeps, "environment" | "validator">,
  input: { candidates: Task[]; knownFingerprints: readonly string[] },
) {
  return deps.validator.validate({
    candidates: input.candidates,
    environment: deps.environment,
    knownFingerprints: input.knownFingerprints,
  });
}

/** Approved new tasks in the order the pool should take them: strongest signal first. */
export function rankApproved(tasks: readonly Task[], signals: readonly Signal[]): Task[] {
  const score = new Map(signals.map((s) => [s.id, s.score]));
  return tasks
    .map((task, index) => ({ task, index }))
    .filter(({ task }) => task.review.status === "approved")
    .sort(
      (a, b) =>
        (score.get(b.task.signalId ?? "") ?? 0) - (score.get(a.task.signalId ?? "") ?? 0) ||
        a.index - b.index,
    )
    .map(({ task }) => task);
}

export function indexTasks(tasks: readonly Task[]): Record<string, Task> {
  const out: Record<string, Task> = {};
  for (const t of tasks) out[t.id] = t;
  return out;
}

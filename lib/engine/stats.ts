import type {
  GenerationStats,
  Signal,
  SignalKind,
  SkillSplitStats,
  Task,
  TaskSplit,
  Trajectory,
} from "./types";

/** Quantiles (min, q1, median, q3, max) with linear interpolation; null for no data. */
export function quantiles(values: readonly number[]): number[] | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return [0, 0.25, 0.5, 0.75, 1].map((q) => {
    const pos = q * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    const v =
      (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
    return Math.round(v * 1000) / 1000;
  });
}

export function summarizeSkillRows(
  generation: number,
  split: TaskSplit,
  tasksById: Readonly<Record<string, Task>>,
  trajectories: readonly Trajectory[],
): SkillSplitStats[] {
  const acc = new Map<string, { attempts: number; successes: number; reward: number }>();
  for (const t of trajectories) {
    const skill = tasksById[t.taskId]?.skill ?? "unknown";
    const a = acc.get(skill) ?? { attempts: 0, successes: 0, reward: 0 };
    a.attempts += 1;
    a.successes += t.success ? 1 : 0;
    a.reward += t.reward;
    acc.set(skill, a);
  }
  return [...acc.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([skill, a]) => ({
      generation,
      skill,
      split,
      attempts: a.attempts,
      successes: a.successes,
      meanReward: Math.round((a.reward / a.attempts) * 1000) / 1000,
    }));
}

export type GenerationStatsInput = {
  generation: number;
  tasksById: Readonly<Record<string, Task>>;
  trainTrajectories: readonly Trajectory[];
  /** Held-out rows of the policy of this generation (see HeldoutSummary.rows). */
  heldoutRows: readonly SkillSplitStats[];
  /** Tasks born in this generation (all candidates, whatever their validation). */
  bornTasks: readonly Task[];
  /** Tasks first attempted in this generation (their measured difficulty was just set). */
  firstAttempted: readonly Task[];
  signals: readonly Signal[];
};

/** Per generation × skill × split aggregates, for charts that must never scan trajectories. */
export function computeGenerationStats(input: GenerationStatsInput): GenerationStats {
  const signalCounts: Record<SignalKind, number> = { forgetting: 0, boundary: 0, rare: 0 };
  for (const s of input.signals) signalCounts[s.kind] += 1;
  return {
    generation: input.generation,
    rows: [
      ...summarizeSkillRows(input.generation, "train", input.tasksById, input.trainTrajectories),
      ...input.heldoutRows,
    ],
    newTaskDifficulty: quantiles(
      input.bornTasks
        .filter((t) => t.validation.status === "valid")
        .map((t) => t.estimatedDifficulty),
    ),
    measuredDifficulty: quantiles(
      input.firstAttempted.map((t) => t.measuredDifficulty).filter((d): d is number => d !== null),
    ),
    signalCounts,
    newTasks: input.bornTasks.length,
    invalidTasks: input.bornTasks.filter((t) => t.validation.status === "invalid").length,
    approvedTasks: input.bornTasks.filter((t) => t.review.status === "approved").length,
  };
}

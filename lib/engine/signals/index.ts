import type { EnvironmentCatalog } from "../environment-types";
import type { RunHistory, Signal, Task, Trajectory } from "../types";
import { detectBoundary } from "./boundary";
import { detectForgetting } from "./forgetting";
import { summarizeGroups } from "./outcomes";
import { detectRare } from "./rare";
import { countUsage } from "./usage";

export { summarizeGroups } from "./outcomes";
export { countUsage, sumUsage } from "./usage";
export { detectBoundary } from "./boundary";
export { detectForgetting } from "./forgetting";
export { detectRare } from "./rare";

export type SignalOptions = {
  passThreshold: number;
  entropyWeight: number;
  rareWindow: number;
  rareMinCount: number;
  rareReachDecay: number;
};

export type ExtractSignalsInput = {
  generation: number;
  tasksById: Readonly<Record<string, Task>>;
  /** This generation's training trajectories. */
  trajectories: readonly Trajectory[];
  /** History *before* this generation (forgetting compares against it). */
  history: RunHistory;
  catalog: EnvironmentCatalog;
  options: SignalOptions;
};

/** Stage: feedback signals from one generation's training rollouts and the run's history. */
export function extractSignals(input: ExtractSignalsInput): Signal[] {
  const outcomes = summarizeGroups(input.tasksById, input.trajectories);
  const current = countUsage(input.generation, input.tasksById, input.trajectories);
  const usages = [...input.history.usage.filter((u) => u.generation < input.generation), current];
  return [
    ...detectForgetting(input.generation, outcomes, input.trajectories, input.history, {
      passThreshold: input.options.passThreshold,
    }),
    ...detectBoundary(input.generation, outcomes, input.trajectories, {
      entropyWeight: input.options.entropyWeight,
    }),
    ...detectRare(input.generation, usages, outcomes, input.trajectories, input.catalog, {
      window: input.options.rareWindow,
      minCount: input.options.rareMinCount,
      reachDecay: input.options.rareReachDecay,
    }),
  ];
}

import type { Task, Trajectory } from "../types";

/** Minimal trajectories for signal/stat tests: only what those stages read. */
export function makeTrajectory(
  task: Pick<Task, "id">,
  options: {
    sample?: number;
    success: boolean;
    tools?: string[];
    generation?: number;
    entropy?: number;
  },
): Trajectory {
  const tools = options.tools ?? ["finish"];
  const generation = options.generation ?? 0;
  const sample = options.sample ?? 0;
  return {
    id: `train:${generation}:${task.id}:${sample}`,
    taskId: task.id,
    generation,
    purpose: "train",
    sampleIndex: sample,
    policyVersion: generation,
    steps: tools.map((tool, index) => ({
      index,
      tool,
      arguments: {},
      observation: null,
      probability: 0.5,
      entropy: options.entropy ?? 1,
      candidateCount: 4,
      isError: false,
    })),
    reward: options.success ? 1 : 0,
    success: options.success,
    sideEffect: false,
    stepCount: tools.length,
    meanEntropy: options.entropy ?? 1,
    answer: null,
    endReason: "finish",
    failure: options.success ? null : "missing: something",
  };
}

export function makeTask(
  id: string,
  skill: string,
  level: number,
  extra: Partial<Task> = {},
): Task {
  return {
    id,
    fingerprint: `fp-${id}`,
    environment: "toolworld",
    skill,
    level,
    estimatedDifficulty: level / 5,
    measuredDifficulty: null,
    measuredByPolicyVersion: null,
    origin: "seed",
    signal: null,
    signalId: null,
    parentTaskId: null,
    relation: null,
    triggerTrajectoryId: null,
    bornGeneration: 0,
    instruction: `task ${id}`,
    spec: {},
    split: "train",
    validation: { status: "valid", reason: null },
    review: { status: "approved", by: "system", note: null },
    ...extra,
  };
}

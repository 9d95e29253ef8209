import type { Environment } from "../../interfaces";
import { deriveSeed } from "../../rng";
import type { PolicyCheckpoint, Task } from "../../types";
import { accumulateDecision, SparseGradient } from "../../trainers/policy-gradient";
import { replayDecisions } from "../../trainers/replay";
import { encodeCheckpoint } from "./checkpoint";
import { FEATURE_DIM } from "./features";

export type BasePolicyOptions = {
  seed: number;
  /** Which demonstrations the "pretrained" policy saw: a few easy tasks of a few skills. */
  demos: Array<{ skill: string; level: number; count: number }>;
  epochs: number;
  learningRate: number;
};

export function generateDemoTasks(environment: Environment, options: BasePolicyOptions): Task[] {
  const local = environment.local;
  if (!local) throw new Error("demonstrations need an in-process environment");
  const tasks: Task[] = [];
  for (const d of options.demos) {
    for (let i = 0; i < d.count; i++) {
      tasks.push(
        local.generateTask({
          skill: d.skill,
          level: d.level,
          seed: deriveSeed("demo", options.seed, d.skill, d.level, i),
          split: "train",
          origin: "seed",
          generation: 0,
        }),
      );
    }
  }
  return tasks;
}

/**
 * The base policy, like a base model before RL: behaviour cloning of reference solutions on a
 * handful of easy demonstrations. Kept deliberately under-trained — a confident base makes most
 * GRPO groups all-pass or all-fail, and those carry no gradient.
 */
export function buildBasePolicy(
  environment: Environment,
  options: BasePolicyOptions,
): PolicyCheckpoint {
  const local = environment.local;
  if (!local) throw new Error("the base policy needs an in-process environment");
  const weights = new Float64Array(FEATURE_DIM);
  const gradient = new SparseGradient(FEATURE_DIM);
  const demos = generateDemoTasks(environment, options);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const task of demos) {
      const decisions = replayDecisions(
        local.openEpisode(task),
        local.referenceSolution(task).map((call) => ({ call, probability: null })),
      );
      for (const d of decisions) {
        accumulateDecision(weights, { ...d, advantage: 1, scale: 1 }, gradient, 0);
      }
      gradient.applyTo(weights, options.learningRate);
    }
  }
  return encodeCheckpoint(weights, 0, "base: behaviour cloning on demonstrations");
}

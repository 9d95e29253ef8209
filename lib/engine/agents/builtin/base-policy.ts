import type { Environment } from "../../interfaces";
import { deriveSeed } from "../../rng";
import type { TaskRequest } from "../../environment-types";
import type { PolicyCheckpoint, Task, ToolCall } from "../../types";
import { accumulateDecision, SparseGradient } from "../../trainers/policy-gradient";
import { replayDecisions, replayDecisionsRemote, type DecisionPoint } from "../../trainers/replay";
import { encodeCheckpoint } from "./checkpoint";
import { FEATURE_DIM } from "./features";

export type BasePolicyOptions = {
  seed: number;
  /** Which demonstrations the "pretrained" policy saw: a few easy tasks of a few skills. */
  demos: Array<{ skill: string; level: number; count: number }>;
  epochs: number;
  learningRate: number;
};

function demoRequests(options: BasePolicyOptions): TaskRequest[] {
  return options.demos.flatMap((d) =>
    Array.from({ length: d.count }, (_, i) => ({
      skill: d.skill,
      level: d.level,
      seed: deriveSeed("demo", options.seed, d.skill, d.level, i),
      split: "train" as const,
      origin: "seed" as const,
      generation: 0,
    })),
  );
}

export function generateDemoTasks(environment: Environment, options: BasePolicyOptions): Task[] {
  const local = environment.local;
  if (!local) throw new Error("demonstrations need an in-process environment");
  return demoRequests(options).map((request) => local.generateTask(request));
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

/**
 * `buildBasePolicy` for an environment reached over the network (episodes with `view()`): the
 * same demonstrations and the same checkpoint. Replay does not depend on the weights, so each
 * demonstration is replayed once and its decisions reused across epochs.
 */
export async function buildBasePolicyRemote(
  environment: Environment,
  options: BasePolicyOptions,
): Promise<PolicyCheckpoint> {
  if (environment.local) return buildBasePolicy(environment, options);
  const demos: DecisionPoint[][] = [];
  for (const request of demoRequests(options)) {
    const task = await environment.generateTask(request);
    const reference = await environment.referenceSolution(task);
    const session = await environment.openEpisode(task);
    try {
      if (!session.view) {
        throw new Error(
          "the base policy clones demonstrations over candidate views: the environment must run in-process or offer view() on its episodes",
        );
      }
      const viewable = {
        maxSteps: session.maxSteps,
        view: () => session.view!(),
        step: (call: ToolCall) => session.step(call),
      };
      demos.push(
        await replayDecisionsRemote(
          viewable,
          reference.map((call) => ({ call, probability: null })),
        ),
      );
    } finally {
      await session.close?.();
    }
  }
  const weights = new Float64Array(FEATURE_DIM);
  const gradient = new SparseGradient(FEATURE_DIM);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const decisions of demos) {
      for (const d of decisions) {
        accumulateDecision(weights, { ...d, advantage: 1, scale: 1 }, gradient, 0);
      }
      gradient.applyTo(weights, options.learningRate);
    }
  }
  return encodeCheckpoint(weights, 0, "base: behaviour cloning on demonstrations");
}

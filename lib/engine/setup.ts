import type { RunConfig } from "../validations/run-config";
import {
  buildBasePolicy,
  buildBasePolicyRemote,
  type BasePolicyOptions,
} from "./agents/builtin/base-policy";
import type { Environment } from "./interfaces";
import { deriveSeed } from "./rng";
import type { PolicyCheckpoint, Task } from "./types";

/** The held-out set (reported) or the dev set (for tuning only): every skill × level, fixed, seeded. */
export async function generateEvaluationSet(
  environment: Environment,
  config: Pick<RunConfig, "seed" | "heldoutPerCell">,
  split: "heldout" | "dev",
): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const skill of environment.describe().skills) {
    for (const level of skill.levels) {
      for (let i = 0; i < config.heldoutPerCell; i++) {
        const task = await environment.generateTask({
          skill: skill.id,
          level,
          seed: deriveSeed(split, config.seed, skill.id, level, i),
          split,
          origin: "seed",
          generation: 0,
        });
        tasks.push(markTrusted(task, "generated evaluation set"));
      }
    }
  }
  return tasks;
}

/** The seed pool: easy levels of every skill, round-robin over skill × level cells. */
export async function generateSeedPool(
  environment: Environment,
  config: Pick<RunConfig, "seed" | "seedPoolSize" | "seedLevels">,
): Promise<Task[]> {
  const cells = environment
    .describe()
    .skills.flatMap((s) => config.seedLevels.map((level) => ({ skill: s.id, level })));
  const tasks: Task[] = [];
  for (let i = 0; i < config.seedPoolSize; i++) {
    const cell = cells[i % cells.length]!;
    const task = await environment.generateTask({
      skill: cell.skill,
      level: cell.level,
      seed: deriveSeed("seed-pool", config.seed, i),
      split: "train",
      origin: "seed",
      generation: 0,
    });
    tasks.push(task);
  }
  return tasks;
}

function markTrusted(task: Task, note: string): Task {
  return {
    ...task,
    validation: { status: "valid", reason: null },
    review: { status: "approved", by: "system", note },
  };
}

function basePolicyOptions(config: Pick<RunConfig, "base">): BasePolicyOptions {
  return {
    seed: config.base.seed,
    demos: config.base.demoSkills.map((skill) => ({
      skill,
      level: 1,
      count: config.base.demosPerSkill,
    })),
    epochs: config.base.epochs,
    learningRate: config.base.learningRate,
  };
}

export function createBasePolicy(
  environment: Environment,
  config: Pick<RunConfig, "base">,
): PolicyCheckpoint {
  return buildBasePolicy(environment, basePolicyOptions(config));
}

/** The same base policy, also for an environment without an in-process world (over HTTP). */
export async function createBasePolicyAsync(
  environment: Environment,
  config: Pick<RunConfig, "base">,
): Promise<PolicyCheckpoint> {
  return buildBasePolicyRemote(environment, basePolicyOptions(config));
}

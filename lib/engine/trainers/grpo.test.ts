import { describe, expect, it } from "vitest";
import { createBuiltinAgent } from "../agents/builtin/agent";
import { buildBasePolicy } from "../agents/builtin/base-policy";
import { decodeCheckpoint } from "../agents/builtin/checkpoint";
import { createToolWorld } from "../environments/toolworld";
import type { TrainerSettings, TrainingGroup } from "../interfaces";
import { createRng } from "../rng";
import { rolloutBatch } from "../rollout";
import type { PolicyCheckpoint, Task, Trajectory } from "../types";
import { groupAdvantages } from "./advantages";
import { createGrpoTrainer } from "./grpo";
import { replayDecisions } from "./replay";
import { scoreCandidates, softmax } from "../agents/builtin/policy";

const environment = createToolWorld();
const agent = createBuiltinAgent();
const trainer = createGrpoTrainer(environment);
const settings: TrainerSettings = {
  learningRate: 1,
  l2ToBase: 0.001,
  clipEpsilon: 0.2,
  minibatchGroups: 4,
  epochs: 1,
};
const base = buildBasePolicy(environment, {
  seed: 0,
  demos: [{ skill: "message", level: 1, count: 4 }],
  epochs: 1,
  learningRate: 0.5,
});

function task(skill: string, level: number, seed: number): Task {
  return environment.local!.generateTask({
    skill,
    level,
    seed,
    split: "train",
    origin: "seed",
    generation: 0,
  });
}

async function rollGroups(
  policy: PolicyCheckpoint,
  tasks: Task[],
  samples = 8,
): Promise<TrainingGroup[]> {
  const trajectories = await rolloutBatch(
    { environment, agent },
    {
      runSeed: 1,
      generation: 0,
      purpose: "train",
      policy,
      temperature: 1,
      items: tasks.map((t) => ({
        task: t,
        sampleIndices: Array.from({ length: samples }, (_, i) => i),
      })),
    },
  );
  return tasks.map((t) => ({
    task: t,
    trajectories: trajectories.filter((x) => x.taskId === t.id),
  }));
}

function logProbOf(policy: PolicyCheckpoint, t: Task, trajectory: Trajectory): number {
  const weights = decodeCheckpoint(policy);
  const points = replayDecisions(
    environment.local!.openEpisode(t),
    trajectory.steps.map((s) => ({
      call: { tool: s.tool, arguments: s.arguments },
      probability: null,
    })),
  );
  return points.reduce(
    (sum, p) => sum + Math.log(softmax(scoreCandidates(weights, p.features)).probs[p.chosen]!),
    0,
  );
}

describe("group advantages", () => {
  it("normalizes rewards within the group", () => {
    expect(groupAdvantages([1, 0])).toEqual([1, -1]);
    const a = groupAdvantages([1, 0, 0, 0]);
    expect(a[0]).toBeCloseTo(Math.sqrt(3));
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(0);
  });

  it("gives zero advantage to zero-variance groups", () => {
    expect(groupAdvantages([1, 1, 1])).toEqual([0, 0, 0]);
    expect(groupAdvantages([0, 0])).toEqual([0, 0]);
  });
});

describe("builtin GRPO trainer", () => {
  it("leaves the weights unchanged when every group has zero variance", async () => {
    const groups = await rollGroups(base, [task("message", 1, 1), task("share", 5, 2)]);
    const constant = groups.map((g) => ({
      ...g,
      trajectories: g.trajectories.map((t) => ({ ...t, reward: 0, success: false })),
    }));
    const { policy, report } = await trainer.train({
      policy: base,
      base,
      groups: constant,
      settings,
      nextVersion: 1,
    });
    expect(report.informativeGroups).toBe(0);
    expect(policy.version).toBe(1);
    expect(policy.payload).toEqual(base.payload);
  });

  it("makes rewarded trajectories more likely and unrewarded ones less likely", async () => {
    const t = task("message", 1, 4);
    const [group] = await rollGroups(base, [t], 8);
    const rewarded = group!.trajectories.find((x) => x.success)!;
    const unrewarded = group!.trajectories.find((x) => !x.success)!;
    expect(rewarded && unrewarded).toBeTruthy();
    // A small step: the first-order regime, where the policy-gradient property must hold.
    const small = { ...settings, learningRate: 0.2 };
    const { policy } = await trainer.train({
      policy: base,
      base,
      groups: [group!],
      settings: small,
      nextVersion: 1,
    });
    expect(logProbOf(policy, t, rewarded)).toBeGreaterThan(logProbOf(base, t, rewarded));
    expect(logProbOf(policy, t, unrewarded)).toBeLessThan(logProbOf(base, t, unrewarded));
  });

  it("is deterministic and independent of the order groups and samples arrive in", async () => {
    const tasks = [
      task("message", 1, 4),
      task("organize", 2, 5),
      task("lookup", 1, 6),
      task("pay", 1, 7),
    ];
    const groups = await rollGroups(base, tasks);
    const shuffled = createRng(9)
      .shuffle(groups)
      .map((g) => ({ ...g, trajectories: createRng(3).shuffle(g.trajectories) }));
    const a = await trainer.train({ policy: base, base, groups, settings, nextVersion: 1 });
    const b = await trainer.train({
      policy: base,
      base,
      groups: shuffled,
      settings,
      nextVersion: 1,
    });
    expect(JSON.stringify(b.policy)).toBe(JSON.stringify(a.policy));
    expect(a.report.informativeGroups).toBeGreaterThan(0);
  });
});

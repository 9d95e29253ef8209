import { describe, expect, it } from "vitest";
import { createToolWorld } from "../environments/toolworld";
import { readSpec } from "../environments/toolworld/spec";
import type { Signal, Task } from "../types";
import { allocateBudget } from "./plan";
import { createRuleSynthesizer, createUniformSynthesizer } from "./rule-based";

const environment = createToolWorld();
const synthesizer = createRuleSynthesizer();
const parent: Task = environment.local!.generateTask({
  skill: "organize",
  level: 2,
  seed: 1,
  split: "train",
  origin: "seed",
  generation: 0,
});

function signal(
  kind: Signal["kind"],
  details: Signal["details"],
  extra: Partial<Signal> = {},
): Signal {
  return {
    id: `${kind}:3:${JSON.stringify(details)}`,
    generation: 3,
    kind,
    score: 0.9,
    taskId: parent.id,
    trajectoryId: `train:3:${parent.id}:5`,
    skill: parent.skill,
    level: parent.level,
    details,
    ...extra,
  };
}

async function synthesize(signals: Signal[], budget: number) {
  return synthesizer.synthesize({
    generation: 4,
    runSeed: 1,
    signals,
    tasksById: { [parent.id]: parent },
    budget,
    weights: { forgetting: 1, boundary: 1, rare: 1 },
    options: { harderAbove: 0.5, maxPerCell: 4 },
    environment,
  });
}

describe("rule-based synthesizer", () => {
  it("makes a harder variant where the agent mostly passes, recording its lineage", async () => {
    const [task] = await synthesize([signal("boundary", { passRate: 0.75 })], 1);
    expect(task).toMatchObject({
      skill: "organize",
      level: 3,
      relation: "harder",
      origin: "synthesized",
      signal: "boundary",
      parentTaskId: parent.id,
      triggerTrajectoryId: `train:3:${parent.id}:5`,
      bornGeneration: 4,
    });
  });

  it("makes fresh-world variants of a forgotten task and an easier one when it now always fails", async () => {
    const tasks = await synthesize([signal("forgetting", { scope: "task", from: 0.75, to: 0 })], 2);
    expect(tasks.map((t) => [t.relation, t.level])).toEqual([
      ["variant", 2],
      ["easier", 1],
    ]);
    expect(readSpec(tasks[0]!).worldSeed).not.toBe(readSpec(parent).worldSeed);
  });

  it("makes an easier task where a cell always fails, unless the level below is already solved", async () => {
    const unsolvedBelow = signal("rare", {
      scope: "cell",
      attempts: 16,
      successes: 0,
      frontier: 0,
    });
    expect((await synthesize([unsolvedBelow], 1))[0]).toMatchObject({
      relation: "easier",
      level: 1,
    });
    const solvedBelow = signal("rare", { scope: "cell", attempts: 16, successes: 0, frontier: 1 });
    expect((await synthesize([solvedBelow], 1))[0]).toMatchObject({
      relation: "explore",
      level: 2,
    });
  });

  it("exercises a rare tool with a task whose reference solution uses it", async () => {
    const rare = signal(
      "rare",
      { scope: "tool", tool: "request_payment", count: 0 },
      { taskId: null, trajectoryId: null, skill: null, level: null },
    );
    const [task] = await synthesize([rare], 1);
    expect(readSpec(task!).reference.map((c) => c.tool)).toContain("request_payment");
    expect(task!.parentTaskId).toBeNull();
  });

  it("caps candidates per skill × level cell and is deterministic", async () => {
    const signals = Array.from({ length: 6 }, (_, i) =>
      signal("boundary", { passRate: 0.25 }, { id: `boundary:3:t${i}` }),
    );
    const tasks = await synthesize(signals, 10);
    expect(tasks.length).toBe(4);
    expect(JSON.stringify(await synthesize(signals, 10))).toBe(JSON.stringify(tasks));
  });

  it("splits the budget by weight over the signal kinds that fired", () => {
    const weights = { forgetting: 1, boundary: 2, rare: 1 };
    expect(allocateBudget(10, weights, new Set(["forgetting", "boundary", "rare"]))).toEqual({
      forgetting: 3,
      boundary: 5,
      rare: 2,
    });
    expect(allocateBudget(9, weights, new Set(["boundary", "rare"]))).toEqual({
      forgetting: 0,
      boundary: 6,
      rare: 3,
    });
  });
});

describe("uniform synthesizer", () => {
  it("draws over every skill and level regardless of signals", async () => {
    const tasks = await createUniformSynthesizer().synthesize({
      generation: 1,
      runSeed: 3,
      signals: [],
      tasksById: {},
      budget: 140,
      weights: { forgetting: 1, boundary: 1, rare: 1 },
      options: { harderAbove: 0.5, maxPerCell: 4 },
      environment,
    });
    expect(tasks.length).toBe(140);
    expect(new Set(tasks.map((t) => t.skill)).size).toBe(7);
    expect(new Set(tasks.map((t) => t.level))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(tasks.every((t) => t.signal === null)).toBe(true);
  });
});

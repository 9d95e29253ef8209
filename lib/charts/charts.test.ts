import { describe, expect, it } from "vitest";
import { cumulativeBudget } from "./budget";
import { FORGETTING_DROP, successHeatmap } from "./heatmap";
import { difficultyDrift, mixtureQuantiles, reviewOutcomes, signalMix } from "./quantiles";
import { describeTrend, sparklinePath } from "./sparkline";
import { overallSuccessByRun, skillSuccessSeries, successBreakdown } from "./success";
import type { DataStatPoint, SkillStatPoint } from "./types";
import { parseList, parseSuccessView, successViewQuery } from "./view-params";

const stat = (
  generation: number,
  skill: string,
  level: number,
  successes: number,
  attempts: number,
  extra: Partial<SkillStatPoint> = {},
): SkillStatPoint => ({
  runId: 1,
  generation,
  split: "HELDOUT",
  skill,
  level,
  attempts,
  successes,
  envSteps: attempts * 3,
  ...extra,
});

const data = (generation: number, skill: string, extra: Partial<DataStatPoint> = {}) =>
  ({
    generation,
    skill,
    candidates: 0,
    valid: 0,
    invalid: 0,
    approved: 0,
    rejected: 0,
    pending: 0,
    signalForgetting: 0,
    signalBoundary: 0,
    signalRare: 0,
    signalUniform: 0,
    estimatedDifficultyQ: [],
    measuredDifficultyQ: [],
    ...extra,
  }) satisfies DataStatPoint;

describe("skillSuccessSeries", () => {
  const points = [
    stat(0, "pay", 1, 1, 4),
    stat(0, "pay", 2, 0, 4),
    stat(0, "lookup", 1, 3, 4),
    stat(1, "pay", 1, 4, 4),
    stat(1, "pay", 2, 2, 4),
    stat(1, "lookup", 1, 2, 4),
    stat(0, "pay", 1, 7, 8, { split: "TRAIN" }),
  ];

  it("pools levels by episodes, one row per generation, skills sorted", () => {
    const series = skillSuccessSeries(points, { split: "HELDOUT", skills: null });
    expect(series.allSkills).toEqual(["lookup", "pay"]);
    expect(series.skills).toEqual(["lookup", "pay"]);
    expect(series.rows).toEqual([
      { generation: 0, rates: { lookup: 0.75, pay: 0.125 }, attempts: { lookup: 4, pay: 8 } },
      { generation: 1, rates: { lookup: 0.5, pay: 0.75 }, attempts: { lookup: 4, pay: 8 } },
    ]);
  });

  it("draws only the selected skills, ignores unknown ones, and reads the asked split", () => {
    const picked = skillSuccessSeries(points, { split: "HELDOUT", skills: ["pay", "nope"] });
    expect(picked.skills).toEqual(["pay"]);
    expect(picked.rows[0]!.rates).toEqual({ pay: 0.125 });
    const train = skillSuccessSeries(points, { split: "TRAIN", skills: null });
    expect(train.rows).toEqual([{ generation: 0, rates: { pay: 0.875 }, attempts: { pay: 8 } }]);
    expect(skillSuccessSeries(points, { split: "HELDOUT", skills: [] }).skills).toEqual([]);
  });
});

describe("overall success and breakdowns", () => {
  const points = [
    stat(0, "pay", 1, 1, 4),
    stat(0, "lookup", 2, 3, 4),
    stat(1, "pay", 1, 2, 4),
    stat(1, "lookup", 2, 4, 4),
    stat(0, "pay", 1, 0, 4, { runId: 2 }),
  ];

  it("gives each run its pooled held-out curve", () => {
    const curves = overallSuccessByRun(points);
    expect(curves.get(1)).toEqual([
      { generation: 0, rate: 0.5, attempts: 8 },
      { generation: 1, rate: 0.75, attempts: 8 },
    ]);
    expect(curves.get(2)).toEqual([{ generation: 0, rate: 0, attempts: 4 }]);
  });

  it("breaks the latest generation down by skill and by level", () => {
    expect(successBreakdown(points, { runId: 1 })).toEqual({
      generation: 1,
      bySkill: { lookup: 1, pay: 0.5 },
      byLevel: { "1": 0.5, "2": 1 },
    });
    expect(successBreakdown(points, { runId: 3 })).toEqual({
      generation: null,
      bySkill: {},
      byLevel: {},
    });
  });
});

describe("successHeatmap", () => {
  it("marks a drop of at least 10 points below the best earlier generation, not just the last", () => {
    const heatmap = successHeatmap([
      stat(0, "pay", 1, 5, 10), // 50%
      stat(1, "pay", 1, 8, 10), // 80%: best so far
      stat(2, "pay", 1, 7, 10), // 70%: exactly 10 points below the best
      stat(3, "pay", 1, 7, 10), // 70%: no drop from generation 2, still 10 below the best
      stat(4, "pay", 1, 79, 100), // 79%: 1 point below: noise
      stat(0, "lookup", 1, 0, 10),
    ]);
    expect(heatmap.threshold).toBe(FORGETTING_DROP);
    expect(heatmap.generations).toEqual([0, 1, 2, 3, 4]);
    expect(heatmap.skills).toEqual(["lookup", "pay"]);
    const pay = heatmap.cells.pay!;
    expect(pay.map((c) => c.bestBefore)).toEqual([null, 0.5, 0.8, 0.8, 0.8]);
    expect(pay.map((c) => (c.drop === null ? null : Number(c.drop.toFixed(3))))).toEqual([
      null,
      null,
      0.1,
      0.1,
      null,
    ]);
    // A skill without statistics in a generation has an empty cell, not a zero.
    expect(heatmap.cells.lookup![1]).toMatchObject({ rate: null, attempts: 0, drop: null });
  });

  it("takes its threshold from the caller", () => {
    const heatmap = successHeatmap([stat(0, "pay", 1, 8, 10), stat(1, "pay", 1, 7, 10)], {
      threshold: 0.2,
    });
    expect(heatmap.cells.pay![1]!.drop).toBeNull();
  });
});

describe("mixtureQuantiles", () => {
  it("returns a single group's quantiles as they are, and null without data", () => {
    expect(mixtureQuantiles([{ weight: 3, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5] }])).toEqual([
      0.1, 0.2, 0.3, 0.4, 0.5,
    ]);
    expect(mixtureQuantiles([])).toBeNull();
    expect(mixtureQuantiles([{ weight: 0, quantiles: [0, 0, 0, 0, 0] }])).toBeNull();
    expect(mixtureQuantiles([{ weight: 4, quantiles: [] }])).toBeNull();
  });

  it("pools two equal, disjoint uniform groups into one uniform over both", () => {
    const q = mixtureQuantiles([
      { weight: 10, quantiles: [0, 0.1, 0.2, 0.3, 0.4] },
      { weight: 10, quantiles: [0.6, 0.7, 0.8, 0.9, 1] },
    ])!;
    expect(q[0]).toBe(0);
    expect(q[4]).toBe(1);
    expect(q[1]).toBeCloseTo(0.2, 6);
    expect(q[2]).toBeCloseTo(0.4, 6); // anywhere in the gap [0.4, 0.6] splits them in half
    expect(q[3]).toBeCloseTo(0.8, 6);
  });

  it("leans toward the heavier group", () => {
    const q = mixtureQuantiles([
      { weight: 30, quantiles: [0, 0.1, 0.2, 0.3, 0.4] },
      { weight: 10, quantiles: [0.6, 0.7, 0.8, 0.9, 1] },
    ])!;
    // 3/4 of the mass is uniform on [0, 0.4]: half of all tasks lie below 0.4 × (0.5 / 0.75).
    expect(q[2]).toBeCloseTo(0.4 * (2 / 3), 6);
    expect(q[2]).toBeLessThan(0.4);
  });

  it("copes with groups whose tasks all share one difficulty", () => {
    const q = mixtureQuantiles([
      { weight: 1, quantiles: [0.5, 0.5, 0.5, 0.5, 0.5] },
      { weight: 1, quantiles: [0.5, 0.5, 0.5, 0.5, 0.5] },
    ])!;
    expect(q.map((v) => Number(v.toFixed(6)))).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });
});

describe("data mix", () => {
  const points = [
    data(0, "pay", { valid: 4, approved: 4, estimatedDifficultyQ: [0.1, 0.1, 0.2, 0.3, 0.3] }),
    data(1, "pay", {
      valid: 3,
      approved: 2,
      rejected: 1,
      signalBoundary: 2,
      signalRare: 1,
      estimatedDifficultyQ: [0.4, 0.5, 0.5, 0.6, 0.7],
      measuredDifficultyQ: [0.2, 0.3, 0.4, 0.5, 0.6],
    }),
    data(1, "lookup", { valid: 1, pending: 3, signalForgetting: 1, signalBoundary: 1 }),
    data(2, "pay", { candidates: 2, invalid: 2 }),
  ];

  it("gives each generation's difficulty distribution and skips generations without tasks", () => {
    const drift = difficultyDrift(points);
    expect(drift.map((p) => p.generation)).toEqual([0, 1]);
    expect(drift[0]).toEqual({
      generation: 0,
      tasks: 4,
      estimated: [0.1, 0.1, 0.2, 0.3, 0.3],
      measured: null,
    });
    // lookup's valid task has no quantiles (it was never recorded): pay's alone remain.
    expect(drift[1]!.estimated).toEqual([0.4, 0.5, 0.5, 0.6, 0.7]);
    expect(drift[1]!.measured).toEqual([0.2, 0.3, 0.4, 0.5, 0.6]);
    expect(drift[1]!.tasks).toBe(4);
  });

  it("sums signals and review outcomes per generation", () => {
    expect(signalMix(points)).toEqual([
      { generation: 1, forgetting: 1, boundary: 3, rare: 1, uniform: 0 },
    ]);
    expect(reviewOutcomes(points)).toEqual([
      { generation: 0, approved: 4, rejected: 0, pending: 0 },
      { generation: 1, approved: 2, rejected: 1, pending: 3 },
    ]);
  });
});

describe("URL view state", () => {
  it("reads split and skills, defaulting to held-out and every skill", () => {
    expect(parseSuccessView({})).toEqual({ split: "HELDOUT", skills: null });
    expect(parseSuccessView({ split: "train", skills: "lookup, pay,,pay" })).toEqual({
      split: "TRAIN",
      skills: ["lookup", "pay"],
    });
    expect(parseSuccessView({ split: "bogus", skills: "" })).toEqual({
      split: "HELDOUT",
      skills: [],
    });
    expect(parseList(["a,b", "c"])).toEqual(["a", "b"]);
  });

  it("writes a readable query and keeps unrelated parameters", () => {
    expect(successViewQuery({ tab: "x" }, { split: "TRAIN", skills: ["lookup", "pay"] })).toBe(
      "tab=x&split=train&skills=lookup,pay",
    );
    expect(
      successViewQuery({ split: "train", skills: "pay" }, { split: "HELDOUT", skills: null }),
    ).toBe("");
  });
});

describe("sparkline", () => {
  it("draws left to right with higher success higher up", () => {
    expect(sparklinePath([0, 1], 23, 13)).toBe("M1.5,11.5L21.5,1.5");
    expect(sparklinePath([0.5], 23, 13)).toBe("M1.5,6.5H21.5");
    expect(sparklinePath([], 23, 13)).toBe("");
  });

  it("says the trend in words", () => {
    expect(describeTrend([0.12, 0.2, 0.25])).toBe(
      "Held-out success over 3 generations: 12.0% to 25.0%, up 13.0 points",
    );
    expect(describeTrend([0.3, 0.1])).toMatch(/down 20\.0 points$/);
    expect(describeTrend([0.3])).toBe("Held-out success over 1 generation: 30.0%");
    expect(describeTrend([])).toBe("No held-out results yet");
  });
});

describe("cumulativeBudget", () => {
  it("accumulates training per run in generation order", () => {
    const budget = cumulativeBudget([
      { runId: 1, generation: 1, trainRollouts: 48, trainEnvSteps: 100 },
      { runId: 1, generation: 0, trainRollouts: 0, trainEnvSteps: 0 },
      { runId: 1, generation: 2, trainRollouts: 48, trainEnvSteps: 120 },
      { runId: 2, generation: 1, trainRollouts: 48, trainEnvSteps: 90 },
    ]);
    expect(budget.get(1)).toEqual([
      { generation: 0, rollouts: 0, envSteps: 0 },
      { generation: 1, rollouts: 48, envSteps: 100 },
      { generation: 2, rollouts: 96, envSteps: 220 },
    ]);
    expect(budget.get(2)).toEqual([{ generation: 1, rollouts: 48, envSteps: 90 }]);
  });
});

import { describe, expect, it } from "vitest";
import { createToolWorld } from "../environments/toolworld";
import { createHistory, updateHistory } from "../history";
import { makeTask, makeTrajectory } from "../testing/fixtures";
import type { RunHistory, Task, Trajectory } from "../types";
import {
  countUsage,
  detectBoundary,
  detectForgetting,
  detectRare,
  extractSignals,
  summarizeGroups,
} from ".";

const catalog = createToolWorld().describe();
const A = makeTask("a", "message", 2);
const B = makeTask("b", "organize", 1);
const tasksById: Record<string, Task> = { a: A, b: B };

/** `passes` of `n` samples succeed. */
function group(
  task: Task,
  passes: number,
  n: number,
  generation: number,
  tools?: string[],
): Trajectory[] {
  return Array.from({ length: n }, (_, i) =>
    makeTrajectory(task, { sample: i, success: i < passes, generation, tools }),
  );
}

function historyAfter(generations: Array<Trajectory[]>): RunHistory {
  let history = createHistory();
  generations.forEach((trajectories, g) => {
    history = updateHistory(
      history,
      g,
      summarizeGroups(tasksById, trajectories),
      countUsage(g, tasksById, trajectories),
      3,
    );
  });
  return history;
}

describe("forgetting", () => {
  it("fires when a task that passed earlier now fails, with what regressed from what to what", () => {
    const history = historyAfter([group(A, 2, 8, 0), group(A, 6, 8, 1)]);
    const now = group(A, 1, 8, 2);
    const signals = detectForgetting(2, summarizeGroups(tasksById, now), now, history, {
      passThreshold: 0.5,
    });
    const task = signals.find((s) => s.details.scope === "task")!;
    expect(task).toMatchObject({
      kind: "forgetting",
      taskId: "a",
      skill: "message",
      level: 2,
      score: 0.625,
    });
    expect(task.details).toMatchObject({ from: 0.75, to: 0.125, passedInGeneration: 1 });
    expect(task.trajectoryId).toBe("train:2:a:1");
    const cell = signals.find((s) => s.details.scope === "cell")!;
    expect(cell).toMatchObject({ skill: "message", level: 2, taskId: null });
    expect(cell.details).toMatchObject({ from: 0.75, to: 0.125 });
  });

  it("stays quiet when the task never passed or still passes", () => {
    const never = historyAfter([group(A, 3, 8, 0)]);
    const low = group(A, 0, 8, 1);
    expect(
      detectForgetting(1, summarizeGroups(tasksById, low), low, never, { passThreshold: 0.5 }),
    ).toEqual([]);
    const passed = historyAfter([group(A, 8, 8, 0)]);
    const still = group(A, 4, 8, 1);
    expect(
      detectForgetting(1, summarizeGroups(tasksById, still), still, passed, { passThreshold: 0.5 }),
    ).toEqual([]);
  });
});

describe("boundary", () => {
  it("scores pass rates strictly between 0 and 1, highest near 0.5", () => {
    const trajectories = [...group(A, 4, 8, 0), ...group(B, 1, 8, 0)];
    const signals = detectBoundary(0, summarizeGroups(tasksById, trajectories), trajectories, {
      entropyWeight: 0,
    });
    expect(signals.map((s) => [s.taskId, s.score])).toEqual([
      ["a", 1],
      ["b", 0.25],
    ]);
    expect(signals[0]!.details).toMatchObject({ passRate: 0.5, samples: 8 });
  });

  it("ignores all-pass and all-fail groups and rises with step entropy", () => {
    const flat = [...group(A, 8, 8, 0), ...group(B, 0, 8, 0)];
    expect(
      detectBoundary(0, summarizeGroups(tasksById, flat), flat, { entropyWeight: 0.5 }),
    ).toEqual([]);
    const calm = group(B, 1, 8, 0).map((t) => ({ ...t, meanEntropy: 0.1 }));
    const unsure = group(B, 1, 8, 0).map((t) => ({ ...t, meanEntropy: 2 }));
    const score = (ts: Trajectory[]) =>
      detectBoundary(0, summarizeGroups(tasksById, ts), ts, { entropyWeight: 0.5 })[0]!.score;
    expect(score(unsure)).toBeGreaterThan(score(calm));
  });
});

describe("rare", () => {
  it("flags offered tools and transitions the agent seldom uses, and unsolved cells near the frontier", () => {
    const trajectories = [
      ...group(A, 8, 8, 0, ["find_contacts", "send_message", "finish"]),
      ...group(B, 8, 8, 0, ["list_files", "move_file", "finish"]),
    ];
    const usage = [countUsage(0, tasksById, trajectories)];
    const signals = detectRare(
      0,
      usage,
      summarizeGroups(tasksById, trajectories),
      trajectories,
      catalog,
      {
        window: 3,
        minCount: 8,
        reachDecay: 0.5,
      },
    );
    const tools = signals.filter((s) => s.details.scope === "tool").map((s) => s.details.tool);
    expect(tools).toContain("get_balance");
    expect(tools).toContain("cancel_event");
    expect(tools).not.toContain("send_message");
    const transitions = signals
      .filter((s) => s.details.scope === "transition")
      .map((s) => s.details.transition);
    expect(transitions).toContain("list_events>cancel_event");
    expect(transitions).not.toContain("find_contacts>send_message");
    const cell = (skill: string, level: number) =>
      signals.find((s) => s.details.scope === "cell" && s.skill === skill && s.level === level);
    expect(cell("message", 2)).toBeUndefined();
    expect(cell("message", 3)?.score).toBe(1);
    expect(cell("message", 4)?.score).toBe(0.5);
    expect(cell("message", 3)?.details).toMatchObject({ frontier: 2, attempts: 0, successes: 0 });
  });
});

describe("extractSignals", () => {
  it("combines the three kinds with unique ids", () => {
    const history = historyAfter([group(A, 8, 8, 0)]);
    const now = [...group(A, 0, 8, 1), ...group(B, 4, 8, 1)];
    const signals = extractSignals({
      generation: 1,
      tasksById,
      trajectories: now,
      history,
      catalog,
      options: {
        passThreshold: 0.5,
        entropyWeight: 0.25,
        rareWindow: 3,
        rareMinCount: 8,
        rareReachDecay: 0.75,
      },
    });
    const kinds = new Set(signals.map((s) => s.kind));
    expect(kinds).toEqual(new Set(["forgetting", "boundary", "rare"]));
    expect(new Set(signals.map((s) => s.id)).size).toBe(signals.length);
  });
});

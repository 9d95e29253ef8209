import { describe, expect, it } from "vitest";
import { createHistory } from "./history";
import { isSeedPoolTask, selectNextPool, type NextPoolInput } from "./pool";
import { makeTask } from "./testing/fixtures";
import type { Signal } from "./types";

const seeds = [makeTask("s1", "pay", 1), makeTask("s2", "pay", 2), makeTask("s3", "lookup", 1)];
const fresh = Array.from({ length: 6 }, (_, i) =>
  makeTask(`n${i}`, "share", 3, { origin: "synthesized" }),
);
const forgotten = makeTask("old", "message", 2);
const base: NextPoolInput = {
  mode: "coevolve",
  runSeed: 1,
  generation: 2,
  tasksPerRound: 8,
  replayFraction: 0.25,
  newTasks: fresh,
  earlierTasks: [...seeds, forgotten],
  seedTaskIds: seeds.map((t) => t.id),
  history: createHistory(),
  signals: [],
};

describe("selectNextPool", () => {
  it("static cycles the seed pool to the same number of slots", () => {
    expect(selectNextPool({ ...base, mode: "static" })).toEqual([
      "s1",
      "s2",
      "s3",
      "s1",
      "s2",
      "s3",
      "s1",
      "s2",
    ]);
  });

  it("static trains imported seed tasks with the generated seed pool, never synthesized ones", () => {
    const imported = makeTask("i1", "pay", 3, { origin: "imported" });
    const tasks = [...seeds, imported, ...fresh];
    expect(tasks.filter(isSeedPoolTask).map((t) => t.id)).toEqual(["s1", "s2", "s3", "i1"]);
    const seedTaskIds = tasks.filter(isSeedPoolTask).map((t) => t.id);
    expect(selectNextPool({ ...base, mode: "static", seedTaskIds })).toEqual([
      "s1",
      "s2",
      "s3",
      "i1",
      "s1",
      "s2",
      "s3",
      "i1",
    ]);
  });

  it("fills (1 − replay) of the slots with new tasks, best first, and replays the rest", () => {
    const pool = selectNextPool(base);
    expect(pool.length).toBe(8);
    expect(pool.slice(0, 6)).toEqual(fresh.map((t) => t.id));
    expect(pool.slice(6).every((id) => ["s1", "s2", "s3", "old"].includes(id))).toBe(true);
  });

  it("replays forgotten tasks first in coevolve mode", () => {
    const signal: Signal = {
      id: "forgetting:1:old",
      generation: 1,
      kind: "forgetting",
      score: 1,
      taskId: "old",
      trajectoryId: null,
      skill: "message",
      level: 2,
      details: {},
    };
    let hits = 0;
    for (let g = 0; g < 40; g++) {
      const pool = selectNextPool({
        ...base,
        generation: g,
        newTasks: fresh.slice(0, 7),
        signals: [signal],
      });
      if (pool.includes("old")) hits++;
    }
    expect(hits).toBeGreaterThan(30);
  });

  it("tops up with replay when fewer new tasks were approved, keeping the budget", () => {
    expect(selectNextPool({ ...base, newTasks: fresh.slice(0, 1) }).length).toBe(8);
  });
});

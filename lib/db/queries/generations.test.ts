import { describe, expect, it, vi } from "vitest";
import { stageProgressOf } from "./generations";

vi.mock("server-only", () => ({}));

const states = (stages: ReturnType<typeof stageProgressOf>) =>
  Object.fromEntries(stages.map((s) => [s.stage, s.state]));

describe("stageProgressOf", () => {
  it("lists generation 0's stages and reads batch counts from the progress JSON", () => {
    const stages = stageProgressOf({ index: 0, status: "RUNNING", stage: "EVALUATE" }, "COEVOLVE", {
      SEED: {
        done: 1,
        total: 1,
        startedAt: "2026-01-01T00:00:00Z",
        finishedAt: "2026-01-01T00:00:01Z",
      },
      EVALUATE: { done: 2, total: 4, startedAt: "2026-01-01T00:00:01Z" },
    });

    expect(stages.map((s) => s.stage)).toEqual(["SEED", "EVALUATE", "NEXT_POOL"]);
    expect(stages[1]).toMatchObject({ state: "running", done: 2, total: 4 });
    expect(stages[2]).toMatchObject({ state: "pending", done: 0, total: null });
  });

  it("skips synthesis, validation and curation in static mode", () => {
    const stages = stageProgressOf({ index: 3, status: "QUEUED", stage: "ROLLOUT" }, "STATIC", {});

    expect(stages.map((s) => s.stage)).toEqual([
      "ROLLOUT",
      "TRAIN",
      "EVALUATE",
      "SIGNALS",
      "NEXT_POOL",
    ]);
    expect(stages[0]!.state).toBe("queued");
  });

  it("marks the stage a round failed or stopped in, and everything before it done", () => {
    const failed = stageProgressOf({ index: 1, status: "FAILED", stage: "TRAIN" }, "COEVOLVE", {
      ROLLOUT: { done: 2, total: 2, finishedAt: "2026-01-01T00:00:02Z" },
    });
    expect(states(failed)).toMatchObject({ ROLLOUT: "done", TRAIN: "failed", EVALUATE: "pending" });
    expect(failed[0]).toMatchObject({ done: 2, total: 2 });

    const cancelled = stageProgressOf(
      { index: 1, status: "CANCELLED", stage: "SIGNALS" },
      "UNIFORM",
      {},
    );
    expect(states(cancelled)).toMatchObject({
      EVALUATE: "done",
      SIGNALS: "stopped",
      CURATE: "pending",
    });
  });

  it("shows every stage full once the generation is done", () => {
    const stages = stageProgressOf({ index: 2, status: "DONE", stage: "DONE" }, "COEVOLVE", {
      ROLLOUT: { done: 8, total: 8 },
    });

    expect(stages.every((s) => s.state === "done" && s.done === s.total)).toBe(true);
    expect(stages[0]).toMatchObject({ done: 8, total: 8 });
  });

  it("shows a stage that waits on an external trainer as waiting, with what for and until when", () => {
    const deadline = "2026-01-01T01:00:00.000Z";
    const waiting = stageProgressOf({ index: 1, status: "RUNNING", stage: "TRAIN" }, "STATIC", {
      ROLLOUT: { done: 2, total: 2, finishedAt: "2026-01-01T00:00:02Z" },
      TRAIN: { startedAt: "2026-01-01T00:00:02Z", waiting: "external trainer", deadline },
    });
    expect(waiting.find((s) => s.stage === "TRAIN")).toMatchObject({
      state: "waiting",
      waitingFor: "external trainer",
      deadline,
    });
    expect(waiting[0]).toMatchObject({ state: "done", waitingFor: null, deadline: null });

    // Reported (the report clears `waiting`), or failed on the deadline: no longer waiting.
    const reported = stageProgressOf({ index: 1, status: "RUNNING", stage: "EVALUATE" }, "STATIC", {
      TRAIN: { waiting: null, deadline, finishedAt: "2026-01-01T00:10:00Z" },
    });
    expect(reported.find((s) => s.stage === "TRAIN")).toMatchObject({
      state: "done",
      waitingFor: null,
    });
    const timedOut = stageProgressOf({ index: 1, status: "FAILED", stage: "TRAIN" }, "STATIC", {
      TRAIN: { waiting: "external trainer", deadline },
    });
    expect(timedOut.find((s) => s.stage === "TRAIN")).toMatchObject({
      state: "failed",
      deadline: null,
    });
  });
});

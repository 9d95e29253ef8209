import { describe, expect, it } from "vitest";
import type { RunConfigInput } from "../validations/run-config";
import { parseRunConfig } from "../validations/run-config";
import { createBuiltinDeps } from "./engine";
import { initRun, runRound, type RunState } from "./round";
import { rolloutBatch } from "./rollout";
import { runInMemory } from "./run";
import { planRollouts } from "./stages";

const SMALL: RunConfigInput = {
  rounds: 3,
  tasksPerRound: 12,
  groupSize: 4,
  heldoutPerCell: 1,
  seedPoolSize: 14,
  synthesisBudget: 12,
};

describe("runInMemory", () => {
  it("is deterministic: same seed, identical run", async () => {
    const a = await runInMemory({ ...SMALL, seed: 5 });
    const b = await runInMemory({ ...SMALL, seed: 5 });
    expect(JSON.stringify(b.result)).toBe(JSON.stringify(a.result));
    expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
    const c = await runInMemory({ ...SMALL, seed: 6 });
    expect(JSON.stringify(c.state.tasks)).not.toBe(JSON.stringify(a.state.tasks));
  });

  it("resumes from a JSON round-trip of its state exactly as if never interrupted", async () => {
    const config = parseRunConfig({ ...SMALL, seed: 8 });
    const deps = createBuiltinDeps(config);
    let straight: RunState = await initRun(config, deps);
    for (let r = 0; r < 2; r++) straight = (await runRound(straight, deps)).state;
    let resumed: RunState = await initRun(config, deps);
    resumed = (await runRound(resumed, deps)).state;
    resumed = JSON.parse(JSON.stringify(resumed)) as RunState;
    resumed = (await runRound(resumed, deps)).state;
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(straight));
  });

  it("reports one held-out entry per generation and the contract's keys", async () => {
    const { result } = await runInMemory({ ...SMALL, seed: 2 });
    expect(Object.keys(result)).toEqual([
      "mode",
      "seed",
      "rounds",
      "heldout",
      "trainRollouts",
      "trainSteps",
      "forgettingEvents",
      "sideEffectRate",
      "elapsedMs",
    ]);
    expect(result.heldout.map((h) => h.generation)).toEqual([0, 1, 2, 3]);
    expect(Object.keys(result.heldout[0]!)).toEqual([
      "generation",
      "success",
      "bySkill",
      "byLevel",
    ]);
    expect(result.trainRollouts).toBe(3 * 12 * 4);
  });

  it("keeps synthesized data honest: every pooled task passes its reference, none is a held-out task", async () => {
    const { state } = await runInMemory({ ...SMALL, rounds: 4, seed: 3 });
    const deps = createBuiltinDeps(state.config);
    const local = deps.environment.local!;
    const heldout = new Set(state.heldout.map((t) => t.fingerprint));
    const synthesized = state.tasks.filter((t) => t.origin === "synthesized");
    expect(synthesized.length).toBeGreaterThan(0);
    for (const task of synthesized) {
      expect(heldout.has(task.fingerprint)).toBe(false);
      if (task.review.status !== "approved") continue;
      const episode = local.openEpisode(task);
      for (const call of local.referenceSolution(task)) episode.stepSync(call);
      expect(episode.scoreSync().success, task.instruction).toBe(true);
    }
    expect(new Set(state.tasks.map((t) => t.fingerprint)).size).toBe(state.tasks.length);
    const pooled = new Set(state.pool);
    for (const task of state.tasks)
      if (pooled.has(task.id)) expect(task.review.status).toBe("approved");
  });

  it("gives every mode the same training-rollout budget, base policy and held-out set", async () => {
    const runs = await Promise.all(
      (["coevolve", "static", "uniform"] as const).map((mode) =>
        runInMemory({ ...SMALL, mode, seed: 4 }),
      ),
    );
    const [co, st, un] = runs.map((r) => r.state);
    expect(st!.counters.trainRollouts).toBe(co!.counters.trainRollouts);
    expect(un!.counters.trainRollouts).toBe(co!.counters.trainRollouts);
    expect(JSON.stringify(st!.basePolicy)).toBe(JSON.stringify(co!.basePolicy));
    expect(st!.heldout.map((t) => t.id)).toEqual(co!.heldout.map((t) => t.id));
    expect(runs[1]!.result.heldout[0]).toEqual(runs[0]!.result.heldout[0]);
    expect(st!.tasks.every((t) => t.origin === "seed")).toBe(true);
  });
});

describe("rolloutBatch", () => {
  it("gives the same trajectories however the work is split into batches", async () => {
    const config = parseRunConfig({ ...SMALL, seed: 9 });
    const deps = createBuiltinDeps(config);
    const state = await initRun(config, deps);
    const byId = Object.fromEntries(state.tasks.map((t) => [t.id, t]));
    const plan = planRollouts(state.pool, config.groupSize);
    const input = (items: typeof plan) => ({
      runSeed: config.seed,
      generation: 0,
      purpose: "train" as const,
      policy: state.policy,
      temperature: 1,
      items: items.map((p) => ({ task: byId[p.taskId]!, sampleIndices: p.sampleIndices })),
    });
    const whole = await rolloutBatch(deps, input(plan));
    const singles = plan.flatMap((p) =>
      p.sampleIndices.map((i) => ({ taskId: p.taskId, sampleIndices: [i] })),
    );
    const reversed = await Promise.all(
      singles.reverse().map((item) => rolloutBatch(deps, input([item]))),
    );
    const byKey = (ts: typeof whole) =>
      JSON.stringify([...ts].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(byKey(reversed.flat())).toBe(byKey(whole));
  });
});

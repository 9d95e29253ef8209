import { parseRunConfig, type RunConfig, type RunConfigInput } from "../validations/run-config";
import { createBuiltinDeps, type EngineDeps } from "./engine";
import { initRun, runRound, type RoundReport, type RunState } from "./round";

/** The CLI's `--json` contract (outside tools parse it): keep keys and meanings stable. */
export type RunResult = {
  mode: RunConfig["mode"];
  seed: number;
  rounds: number;
  heldout: Array<{
    generation: number;
    success: number;
    bySkill: Record<string, number>;
    byLevel: Record<string, number>;
  }>;
  trainRollouts: number;
  /** Environment steps spent in training rollouts. */
  trainSteps: number;
  forgettingEvents: number;
  /** Share of the final policy's held-out episodes that changed the world beyond the task. */
  sideEffectRate: number;
  elapsedMs: number;
};

export type RunInMemoryOptions = {
  deps?: EngineDeps;
  evaluationSplit?: "heldout" | "dev";
  onRound?: (report: RoundReport, state: RunState) => void;
  /** Clock for elapsedMs; the engine never reads time itself (results stay deterministic). */
  now?: () => number;
};

/** A whole run in memory, no database: setup, then `rounds` rounds. */
export async function runInMemory(
  input: RunConfigInput | RunConfig,
  options: RunInMemoryOptions = {},
): Promise<{ result: RunResult; state: RunState }> {
  const now = options.now ?? (() => 0);
  const started = now();
  const config = parseRunConfig(input);
  const deps = options.deps ?? createBuiltinDeps(config);
  let state = await initRun(config, deps, { evaluationSplit: options.evaluationSplit });
  for (let r = 0; r < config.rounds; r++) {
    const out = await runRound(state, deps, now);
    state = out.state;
    options.onRound?.(out.report, state);
  }
  return { result: summarizeRun(state, now() - started), state };
}

export function summarizeRun(state: RunState, elapsedMs: number): RunResult {
  const last = state.heldoutHistory[state.heldoutHistory.length - 1];
  return {
    mode: state.config.mode,
    seed: state.config.seed,
    rounds: state.generation,
    heldout: state.heldoutHistory.map((h) => ({
      generation: h.generation,
      success: h.success,
      bySkill: h.bySkill,
      byLevel: h.byLevel,
    })),
    trainRollouts: state.counters.trainRollouts,
    trainSteps: state.counters.trainSteps,
    forgettingEvents: state.counters.forgettingEvents,
    sideEffectRate: last?.sideEffectRate ?? 0,
    elapsedMs: Math.round(elapsedMs),
  };
}

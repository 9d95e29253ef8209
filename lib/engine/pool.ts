import { createDerivedRng, type Rng } from "./rng";
import type { RunHistory, Signal, Task } from "./types";

export type PoolMode = "coevolve" | "static" | "uniform";

export type NextPoolInput = {
  mode: PoolMode;
  runSeed: number;
  /** The generation this pool is for. */
  generation: number;
  tasksPerRound: number;
  replayFraction: number;
  /** Approved tasks born for this generation, best first. */
  newTasks: readonly Task[];
  /** Earlier approved training tasks (seed pool included), the replay candidates. */
  earlierTasks: readonly Task[];
  seedTaskIds: readonly string[];
  history: RunHistory;
  /** The signals of the round that just ended (forgetting prioritizes replay). */
  signals: readonly Signal[];
};

/** The fixed pool static mode trains on: the generated seed pool and any imported seed tasks. */
export function isSeedPoolTask(task: Pick<Task, "origin">): boolean {
  return task.origin === "seed" || task.origin === "imported";
}

/**
 * Stage: the next training pool, as task ids (a task may appear more than once; each appearance
 * is one GRPO group). Its length is always `tasksPerRound`, so every mode spends the same number
 * of training rollouts per round.
 */
export function selectNextPool(input: NextPoolInput): string[] {
  const size = input.tasksPerRound;
  if (input.mode === "static") return cycle(input.seedTaskIds, size);
  const newSlots = Math.round(size * (1 - input.replayFraction));
  const fresh = input.newTasks.slice(0, newSlots).map((t) => t.id);
  const rng = createDerivedRng("replay", input.runSeed, input.generation);
  const freshIds = new Set(fresh);
  const candidates = input.earlierTasks.filter((t) => !freshIds.has(t.id));
  const weights =
    input.mode === "coevolve"
      ? candidates.map((t) => replayPriority(t, input.history, input.signals))
      : candidates.map(() => 1);
  const replay = sampleWeighted(
    rng,
    candidates.map((t) => t.id),
    weights,
    size - fresh.length,
  );
  return [...fresh, ...replay];
}

/**
 * Forgetting-prioritized replay: regressed tasks first, then tasks near the boundary; mastered
 * tasks are replayed rarely (still enough to notice if they slip).
 */
export function replayPriority(
  task: Task,
  history: RunHistory,
  signals: readonly Signal[],
): number {
  const forgetting = signals.find((s) => s.kind === "forgetting" && s.taskId === task.id);
  if (forgetting) return 8 + 8 * forgetting.score;
  const record = history.tasks[task.id];
  if (!record) return 2;
  const p = record.lastPassRate;
  if (p <= 0) return 0.5;
  if (p >= 1) return 0.5;
  return 1 + 3 * (1 - 2 * Math.abs(p - 0.5));
}

function cycle(ids: readonly string[], size: number): string[] {
  if (ids.length === 0) return [];
  return Array.from({ length: size }, (_, i) => ids[i % ids.length] as string);
}

/** Weighted sampling without replacement (Efraimidis–Spirakis); repeats only once all are used. */
function sampleWeighted(
  rng: Rng,
  ids: readonly string[],
  weights: readonly number[],
  count: number,
): string[] {
  if (count <= 0 || ids.length === 0) return [];
  const keyed = ids
    .map((id, i) => ({ id, key: Math.pow(rng.next(), 1 / Math.max(1e-9, weights[i] as number)) }))
    .sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : 1));
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) out.push(keyed[i % keyed.length]!.id);
  return out;
}

import type { GroupOutcome, RunHistory, Signal, Trajectory } from "../types";

export type ForgettingOptions = { passThreshold: number };

/**
 * Forgetting: a task that passed (≥ threshold) in an earlier generation and now fails, and a
 * skill × level cell whose success rate fell from ≥ threshold to below it. Score = size of the drop.
 */
export function detectForgetting(
  generation: number,
  outcomes: readonly GroupOutcome[],
  trajectories: readonly Trajectory[],
  history: RunHistory,
  options: ForgettingOptions,
): Signal[] {
  const signals: Signal[] = [];
  const threshold = options.passThreshold;
  for (const o of outcomes) {
    const record = history.tasks[o.taskId];
    if (!record || record.bestGeneration >= generation) continue;
    if (record.bestPassRate < threshold || o.passRate >= threshold) continue;
    const failed = trajectories.find((t) => t.taskId === o.taskId && !t.success);
    signals.push({
      id: `forgetting:${generation}:${o.taskId}`,
      generation,
      kind: "forgetting",
      score: round(record.bestPassRate - o.passRate),
      taskId: o.taskId,
      trajectoryId: failed?.id ?? null,
      skill: o.skill,
      level: o.level,
      details: {
        scope: "task",
        from: record.bestPassRate,
        to: o.passRate,
        passedInGeneration: record.bestGeneration,
        lastPassRate: record.lastPassRate,
      },
    });
  }
  const current = cellRates(outcomes);
  for (const [cell, now] of Object.entries(current)) {
    let best: { rate: number; generation: number } | null = null;
    for (const usage of history.usage) {
      const c = usage.cells[cell];
      if (!c || c.attempts === 0 || usage.generation >= generation) continue;
      const rate = c.successes / c.attempts;
      if (!best || rate > best.rate) best = { rate, generation: usage.generation };
    }
    if (!best || best.rate < threshold || now.rate >= threshold) continue;
    const [skill = "", level = "0"] = cell.split(":");
    signals.push({
      id: `forgetting:${generation}:cell:${cell}`,
      generation,
      kind: "forgetting",
      score: round(best.rate - now.rate),
      taskId: null,
      trajectoryId: null,
      skill,
      level: Number(level),
      details: {
        scope: "cell",
        from: round(best.rate),
        to: round(now.rate),
        passedInGeneration: best.generation,
        attempts: now.attempts,
      },
    });
  }
  return signals;
}

function cellRates(outcomes: readonly GroupOutcome[]) {
  const cells: Record<string, { attempts: number; successes: number; rate: number }> = {};
  for (const o of outcomes) {
    const key = `${o.skill}:${o.level}`;
    const c = (cells[key] ??= { attempts: 0, successes: 0, rate: 0 });
    c.attempts += o.samples;
    c.successes += o.successes;
    c.rate = c.successes / c.attempts;
  }
  return cells;
}

export const round = (x: number) => Math.round(x * 1000) / 1000;

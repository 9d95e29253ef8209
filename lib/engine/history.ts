import type { GroupOutcome, RunHistory, UsageCounts } from "./types";

export function createHistory(): RunHistory {
  return { tasks: {}, usage: [] };
}

/**
 * Folds one generation's training outcomes into the run's memory. Returns a new object (inputs
 * are never mutated), keeping only the usage window the rare signal needs.
 */
export function updateHistory(
  history: RunHistory,
  generation: number,
  outcomes: readonly GroupOutcome[],
  usage: UsageCounts,
  window: number,
): RunHistory {
  const tasks = { ...history.tasks };
  for (const o of outcomes) {
    const previous = tasks[o.taskId];
    if (!previous) {
      tasks[o.taskId] = {
        taskId: o.taskId,
        skill: o.skill,
        level: o.level,
        firstGeneration: generation,
        lastGeneration: generation,
        lastPassRate: o.passRate,
        bestGeneration: generation,
        bestPassRate: o.passRate,
        attempts: o.samples,
      };
      continue;
    }
    const isBest = o.passRate > previous.bestPassRate;
    tasks[o.taskId] = {
      ...previous,
      lastGeneration: generation,
      lastPassRate: o.passRate,
      bestGeneration: isBest ? generation : previous.bestGeneration,
      bestPassRate: isBest ? o.passRate : previous.bestPassRate,
      attempts: previous.attempts + o.samples,
    };
  }
  const usageList = [...history.usage.filter((u) => u.generation !== generation), usage]
    .sort((a, b) => a.generation - b.generation)
    .slice(-Math.max(1, window));
  return { tasks, usage: usageList };
}

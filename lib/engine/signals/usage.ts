import type { Task, Trajectory, UsageCounts } from "../types";

/** Tool, transition and skill × level counts of one generation's training trajectories. */
export function countUsage(
  generation: number,
  tasksById: Readonly<Record<string, Task>>,
  trajectories: readonly Trajectory[],
): UsageCounts {
  const usage: UsageCounts = {
    generation,
    trajectories: trajectories.length,
    tools: {},
    transitions: {},
    cells: {},
  };
  for (const t of trajectories) {
    const task = tasksById[t.taskId];
    if (task) {
      const cell = (usage.cells[`${task.skill}:${task.level}`] ??= { attempts: 0, successes: 0 });
      cell.attempts += 1;
      if (t.success) cell.successes += 1;
    }
    let previous: string | null = null;
    for (const step of t.steps) {
      if (step.isError) continue;
      usage.tools[step.tool] = (usage.tools[step.tool] ?? 0) + 1;
      if (previous !== null) {
        const key = `${previous}>${step.tool}`;
        usage.transitions[key] = (usage.transitions[key] ?? 0) + 1;
      }
      previous = step.tool;
    }
  }
  return usage;
}

/** Sums usage over the most recent `window` generations (current included). */
export function sumUsage(usages: readonly UsageCounts[], window: number) {
  const recent = usages.slice(-window);
  const tools: Record<string, number> = {};
  const transitions: Record<string, number> = {};
  const cells: Record<string, { attempts: number; successes: number }> = {};
  for (const u of recent) {
    for (const [k, v] of Object.entries(u.tools)) tools[k] = (tools[k] ?? 0) + v;
    for (const [k, v] of Object.entries(u.transitions)) transitions[k] = (transitions[k] ?? 0) + v;
    for (const [k, v] of Object.entries(u.cells)) {
      const c = (cells[k] ??= { attempts: 0, successes: 0 });
      c.attempts += v.attempts;
      c.successes += v.successes;
    }
  }
  return { tools, transitions, cells, generations: recent.map((u) => u.generation) };
}

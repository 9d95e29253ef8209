import type { GroupOutcome, Task, Trajectory } from "../types";

/** Per-task outcome of a set of trajectories (all samples of a task pooled), sorted by task id. */
export function summarizeGroups(
  tasksById: Readonly<Record<string, Task>>,
  trajectories: readonly Trajectory[],
): GroupOutcome[] {
  const byTask = new Map<string, Trajectory[]>();
  for (const t of trajectories) {
    const list = byTask.get(t.taskId) ?? [];
    list.push(t);
    byTask.set(t.taskId, list);
  }
  const out: GroupOutcome[] = [];
  for (const [taskId, list] of byTask) {
    const task = tasksById[taskId];
    if (!task) throw new Error(`trajectories reference unknown task ${taskId}`);
    const n = list.length;
    const successes = list.filter((t) => t.success).length;
    out.push({
      taskId,
      skill: task.skill,
      level: task.level,
      samples: n,
      successes,
      passRate: successes / n,
      meanReward: list.reduce((a, t) => a + t.reward, 0) / n,
      meanEntropy: list.reduce((a, t) => a + t.meanEntropy, 0) / n,
      meanSteps: list.reduce((a, t) => a + t.stepCount, 0) / n,
    });
  }
  return out.sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
}

import { summarizeSkillRows } from "./stats";
import type { HeldoutSummary, Task, Trajectory } from "./types";

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Held-out success overall, per skill and per level, plus the share of episodes with side effects. */
export function summarizeHeldout(
  generation: number,
  tasks: readonly Task[],
  trajectories: readonly Trajectory[],
): HeldoutSummary {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const bySkill: Record<string, number[]> = {};
  const byLevel: Record<string, number[]> = {};
  for (const t of trajectories) {
    const task = byId.get(t.taskId);
    if (!task) throw new Error(`evaluation trajectory for unknown task ${t.taskId}`);
    (bySkill[task.skill] ??= []).push(t.success ? 1 : 0);
    (byLevel[String(task.level)] ??= []).push(t.success ? 1 : 0);
  }
  const sortKeys = (o: Record<string, number[]>) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, round3(mean(o[k] as number[]))]),
    );
  return {
    generation,
    success: round3(mean(trajectories.map((t) => (t.success ? 1 : 0)))),
    bySkill: sortKeys(bySkill),
    byLevel: sortKeys(byLevel),
    sideEffectRate: round3(mean(trajectories.map((t) => (t.sideEffect ? 1 : 0)))),
    episodes: trajectories.length,
    envSteps: trajectories.reduce((a, t) => a + t.stepCount, 0),
    rows: summarizeSkillRows(
      generation,
      tasks[0]?.split ?? "heldout",
      Object.fromEntries(byId),
      trajectories,
    ),
  };
}

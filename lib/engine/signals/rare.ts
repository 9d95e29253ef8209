import type { EnvironmentCatalog } from "../environment-types";
import type { GroupOutcome, Signal, Trajectory, UsageCounts } from "../types";
import { round } from "./forgetting";
import { sumUsage } from "./usage";

export type RareOptions = {
  /** Generations of training trajectories to look back over (current included). */
  window: number;
  /** Fewer uses (tools, transitions) or successes (cells) than this in the window is rare. */
  minCount: number;
  /** A cell's score is multiplied by this per level above frontier + 1. */
  reachDecay: number;
};

/**
 * Rare: long-tail behaviour seldom seen in recent trajectories — tools and tool transitions the
 * environment offers but the agent rarely uses, and skill × level cells it rarely solves. Cells
 * far above the skill's frontier (highest level solved ≥ half the time) are damped: a rare cell
 * just past the frontier is worth more than one the agent cannot reach yet.
 */
export function detectRare(
  generation: number,
  usages: readonly UsageCounts[],
  outcomes: readonly GroupOutcome[],
  trajectories: readonly Trajectory[],
  catalog: EnvironmentCatalog,
  options: RareOptions,
): Signal[] {
  const recent = sumUsage(usages, options.window);
  const min = options.minCount;
  const signals: Signal[] = [];
  const tools = new Set<string>();
  const transitions = new Set<string>();
  for (const skill of catalog.skills) {
    for (const list of Object.values(skill.toolsByLevel)) for (const t of list) tools.add(t);
    for (const list of Object.values(skill.transitionsByLevel))
      for (const t of list) transitions.add(t);
  }
  tools.delete("finish");
  for (const tool of [...tools].sort()) {
    const count = recent.tools[tool] ?? 0;
    if (count >= min) continue;
    signals.push({
      id: `rare:${generation}:tool:${tool}`,
      generation,
      kind: "rare",
      score: round(1 - count / min),
      taskId: null,
      trajectoryId: null,
      skill: null,
      level: null,
      details: { scope: "tool", tool, count, window: recent.generations },
    });
  }
  for (const transition of [...transitions].sort()) {
    const count = recent.transitions[transition] ?? 0;
    if (count >= min) continue;
    signals.push({
      id: `rare:${generation}:transition:${transition}`,
      generation,
      kind: "rare",
      score: round(0.8 * (1 - count / min)),
      taskId: null,
      trajectoryId: null,
      skill: null,
      level: null,
      details: { scope: "transition", transition, count, window: recent.generations },
    });
  }
  for (const skill of catalog.skills) {
    let frontier = 0;
    for (const level of skill.levels) {
      const c = recent.cells[`${skill.id}:${level}`];
      if (c && c.attempts > 0 && c.successes / c.attempts >= 0.5)
        frontier = Math.max(frontier, level);
    }
    for (const level of skill.levels) {
      const cell = `${skill.id}:${level}`;
      const c = recent.cells[cell] ?? { attempts: 0, successes: 0 };
      if (c.successes >= min) continue;
      const reach = Math.pow(options.reachDecay, Math.max(0, level - frontier - 1));
      const score = round((1 - c.successes / min) * reach);
      if (score < 0.1) continue;
      const inCell = outcomes
        .filter((o) => o.skill === skill.id && o.level === level)
        .sort((a, b) => a.passRate - b.passRate || (a.taskId < b.taskId ? -1 : 1));
      const worst = inCell[0];
      const failed = worst
        ? trajectories.find((t) => t.taskId === worst.taskId && !t.success)
        : undefined;
      signals.push({
        id: `rare:${generation}:cell:${cell}`,
        generation,
        kind: "rare",
        score,
        taskId: worst?.taskId ?? null,
        trajectoryId: failed?.id ?? null,
        skill: skill.id,
        level,
        details: {
          scope: "cell",
          attempts: c.attempts,
          successes: c.successes,
          frontier,
          window: recent.generations,
        },
      });
    }
  }
  return signals;
}

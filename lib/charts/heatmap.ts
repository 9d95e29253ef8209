import { rateOf, type Rate, type SkillStatPoint } from "./types";

/**
 * A drop of at least this much (0–1, i.e. 10 percentage points) below the best an earlier
 * generation reached on a skill counts as forgetting. Smaller moves are within the noise of a
 * few held-out episodes per skill × level cell.
 */
export const FORGETTING_DROP = 0.1;

export type HeatmapCell = {
  generation: number;
  rate: Rate;
  attempts: number;
  /** The best rate of any earlier generation on this skill; null for the first one. */
  bestBefore: Rate;
  /** bestBefore − rate when this is forgetting, else null. */
  drop: number | null;
};

export type SuccessHeatmap = {
  generations: number[];
  skills: string[];
  /** cells[skill][i] is generations[i]. */
  cells: Record<string, HeatmapCell[]>;
  threshold: number;
};

/** Held-out success per skill × generation, with forgetting (a drop from an earlier best) marked. */
export function successHeatmap(
  points: readonly SkillStatPoint[],
  options: { threshold?: number } = {},
): SuccessHeatmap {
  const threshold = options.threshold ?? FORGETTING_DROP;
  const heldout = points.filter((p) => p.split === "HELDOUT");
  const generations = [...new Set(heldout.map((p) => p.generation))].sort((a, b) => a - b);
  const skills = [...new Set(heldout.map((p) => p.skill))].sort();
  const sums = new Map<string, { attempts: number; successes: number }>();
  for (const p of heldout) {
    const key = `${p.skill}\u0000${p.generation}`;
    const cell = sums.get(key) ?? { attempts: 0, successes: 0 };
    cell.attempts += p.attempts;
    cell.successes += p.successes;
    sums.set(key, cell);
  }
  const cells: Record<string, HeatmapCell[]> = {};
  for (const skill of skills) {
    let best: Rate = null;
    cells[skill] = generations.map((generation) => {
      const sum = sums.get(`${skill}\u0000${generation}`);
      const rate = sum ? rateOf(sum.successes, sum.attempts) : null;
      const bestBefore = best;
      // A tiny epsilon so a drop of exactly the threshold counts despite float rounding.
      const isForgetting =
        rate !== null && bestBefore !== null && bestBefore - rate >= threshold - 1e-9;
      if (rate !== null && (best === null || rate > best)) best = rate;
      return {
        generation,
        rate,
        attempts: sum?.attempts ?? 0,
        bestBefore,
        drop: isForgetting ? bestBefore - rate : null,
      };
    });
  }
  return { generations, skills, cells, threshold };
}

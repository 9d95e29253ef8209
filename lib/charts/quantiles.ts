import type { DataStatPoint } from "./types";

/** The five quantiles GenerationDataStat stores: min, q25, median, q75, max. */
export const QUANTILE_PROBS = [0, 0.25, 0.5, 0.75, 1] as const;
export type FiveNumbers = [number, number, number, number, number];

export type QuantilePart = { weight: number; quantiles: readonly number[] };

/** Share of one part's values ≤ x, reading its five quantiles as a piecewise-linear CDF. */
function partCdf(q: readonly number[], x: number): number {
  if (x < q[0]!) return 0;
  if (x >= q[4]!) return 1;
  for (let k = 0; k < 4; k += 1) {
    const lo = q[k]!;
    const hi = q[k + 1]!;
    if (x < hi) {
      const p0 = QUANTILE_PROBS[k]!;
      return hi === lo ? p0 : p0 + 0.25 * ((x - lo) / (hi - lo));
    }
  }
  return 1;
}

/**
 * The five quantiles of a mixture of groups known only by their own five quantiles and sizes
 * (per-skill difficulty → one distribution per generation). Each group's CDF is taken as linear
 * between its quantiles; the mixture CDF is inverted by bisection. Exact for a single group and
 * at min and max; in between, as good as the five-number summaries allow.
 */
export function mixtureQuantiles(parts: readonly QuantilePart[]): FiveNumbers | null {
  const usable = parts.filter((p) => p.weight > 0 && p.quantiles.length === 5);
  if (usable.length === 0) return null;
  if (usable.length === 1) return [...usable[0]!.quantiles] as FiveNumbers;
  const total = usable.reduce((sum, p) => sum + p.weight, 0);
  const min = Math.min(...usable.map((p) => p.quantiles[0]!));
  const max = Math.max(...usable.map((p) => p.quantiles[4]!));
  const cdf = (x: number) =>
    usable.reduce((sum, p) => sum + p.weight * partCdf(p.quantiles, x), 0) / total;
  const inverse = (prob: number) => {
    let lo = min;
    let hi = max;
    for (let i = 0; i < 50; i += 1) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) < prob) lo = mid;
      else hi = mid;
    }
    return hi;
  };
  return [min, inverse(0.25), inverse(0.5), inverse(0.75), max];
}

export type DifficultyPoint = {
  generation: number;
  /** Valid new tasks the estimated quantiles describe. */
  tasks: number;
  estimated: FiveNumbers | null;
  measured: FiveNumbers | null;
};

/**
 * Per generation, the difficulty distribution of its new training tasks, estimated and measured,
 * pooled over skills. Estimated quantiles cover the valid tasks (weight: valid); measured ones
 * the tasks a policy has attempted, which are the approved ones that entered a pool (weight:
 * approved). Generations without new tasks (a static run after generation 0) are left out.
 */
export function difficultyDrift(points: readonly DataStatPoint[]): DifficultyPoint[] {
  const byGeneration = new Map<number, DataStatPoint[]>();
  for (const p of points)
    byGeneration.set(p.generation, [...(byGeneration.get(p.generation) ?? []), p]);
  return [...byGeneration.entries()]
    .sort(([a], [b]) => a - b)
    .map(([generation, rows]) => ({
      generation,
      tasks: rows.reduce((sum, r) => sum + r.valid, 0),
      estimated: mixtureQuantiles(
        rows.map((r) => ({ weight: r.valid, quantiles: r.estimatedDifficultyQ })),
      ),
      measured: mixtureQuantiles(
        rows.map((r) => ({ weight: Math.max(r.approved, 1), quantiles: r.measuredDifficultyQ })),
      ),
    }))
    .filter((p) => p.estimated !== null || p.measured !== null);
}

export type SignalMixPoint = {
  generation: number;
  forgetting: number;
  boundary: number;
  rare: number;
  uniform: number;
};

export type ReviewPoint = {
  generation: number;
  approved: number;
  rejected: number;
  pending: number;
};

function sumByGeneration<K extends string>(
  points: readonly DataStatPoint[],
  pick: (p: DataStatPoint) => Record<K, number>,
): Array<{ generation: number } & Record<K, number>> {
  const totals = new Map<number, Record<K, number>>();
  for (const p of points) {
    const values = pick(p);
    const sum = totals.get(p.generation);
    if (!sum) {
      totals.set(p.generation, { ...values });
      continue;
    }
    for (const key of Object.keys(values) as K[]) sum[key] += values[key];
  }
  return [...totals.entries()]
    .sort(([a], [b]) => a - b)
    .map(([generation, values]) => ({ generation, ...values }));
}

/**
 * Which signal each generation's new tasks were synthesized for. Generations whose new tasks
 * carry no signal at all (the seed pool) are left out: there is nothing to mix.
 */
export function signalMix(points: readonly DataStatPoint[]): SignalMixPoint[] {
  return sumByGeneration(points, (p) => ({
    forgetting: p.signalForgetting,
    boundary: p.signalBoundary,
    rare: p.signalRare,
    uniform: p.signalUniform,
  })).filter((p) => p.forgetting + p.boundary + p.rare + p.uniform > 0);
}

/** How each generation's new tasks were curated (approved, rejected, still pending). */
export function reviewOutcomes(points: readonly DataStatPoint[]): ReviewPoint[] {
  return sumByGeneration(points, (p) => ({
    approved: p.approved,
    rejected: p.rejected,
    pending: p.pending,
  })).filter((p) => p.approved + p.rejected + p.pending > 0);
}

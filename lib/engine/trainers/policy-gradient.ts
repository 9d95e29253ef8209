import { scoreCandidates, softmax } from "../agents/builtin/policy";
import type { DecisionPoint } from "./replay";

/** A scored decision: advantage-weighted, with the number of trajectories it is averaged over. */
export type WeightedDecision = DecisionPoint & { advantage: number; scale: number };

/** Sparse gradient accumulator over a dense buffer: touched indices are tracked for the update. */
export class SparseGradient {
  readonly values: Float64Array;
  private readonly touched: number[] = [];
  private readonly isTouched: Uint8Array;

  constructor(dim: number) {
    this.values = new Float64Array(dim);
    this.isTouched = new Uint8Array(dim);
  }

  add(index: number, value: number): void {
    if (this.isTouched[index] === 0) {
      this.isTouched[index] = 1;
      this.touched.push(index);
    }
    this.values[index] = (this.values[index] as number) + value;
  }

  /** Applies w += rate · g over the touched entries (sorted: same float order every run), then clears. */
  applyTo(weights: Float64Array, rate: number): number {
    this.touched.sort((a, b) => a - b);
    let norm = 0;
    for (const i of this.touched) {
      const g = this.values[i] as number;
      norm += g * g;
      weights[i] = (weights[i] as number) + rate * g;
      this.values[i] = 0;
      this.isTouched[i] = 0;
    }
    this.touched.length = 0;
    return Math.sqrt(norm);
  }
}

/**
 * Accumulates the clipped policy-gradient of Σ A · log π(a|s) for a log-linear policy:
 * ∇ log π(a) = φ(a) − E_π[φ]. A decision whose probability already moved more than `clip` away
 * from the acting policy's in the advantage's direction contributes nothing (PPO/GRPO clipping).
 * Returns whether the decision was clipped.
 */
export function accumulateDecision(
  weights: Float64Array,
  decision: WeightedDecision,
  gradient: SparseGradient,
  clip: number,
): boolean {
  const scores = scoreCandidates(weights, decision.features);
  const { probs } = softmax(scores);
  const p = probs[decision.chosen] as number;
  if (decision.oldProbability !== null && decision.oldProbability > 0 && clip > 0) {
    const ratio = p / decision.oldProbability;
    if (decision.advantage > 0 && ratio > 1 + clip) return true;
    if (decision.advantage < 0 && ratio < 1 - clip) return true;
  }
  const coef = decision.advantage / decision.scale;
  for (let c = 0; c < decision.features.length; c++) {
    const g = coef * ((c === decision.chosen ? 1 : 0) - (probs[c] as number));
    if (g === 0) continue;
    const feats = decision.features[c] as Int32Array;
    for (let j = 0; j < feats.length; j++) gradient.add(feats[j] as number, g);
  }
  return false;
}

/** Pulls weights toward the base policy: w ← w − rate · λ · (w − w_base). */
export function pullTowardBase(
  weights: Float64Array,
  base: Float64Array,
  rate: number,
  lambda: number,
): void {
  const k = rate * lambda;
  if (k === 0) return;
  for (let i = 0; i < weights.length; i++) {
    const d = (weights[i] as number) - (base[i] as number);
    if (d !== 0) weights[i] = (weights[i] as number) - k * d;
  }
}

export function distance(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

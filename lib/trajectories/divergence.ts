import type { Json } from "@/lib/engine/types";
import { groupAdvantages } from "@/lib/engine/trainers/advantages";

/**
 * How the rollouts of one GRPO group line up step by step. Pure, so the group page, its tests and
 * the e2e spec compute the same answer from the same rows.
 */

/** The part of a step that is the policy's choice; what it observed afterwards is not. */
export type ChosenAction = { tool: string; arguments: Json };

export type StepAlignment = {
  /** 0-based position in the rollouts; pages show it 1-based ("step 1" is the first action). */
  position: number;
  /** Each sample's action key at this position, or null once that sample has ended. */
  keys: (string | null)[];
  /** Every sample took this very action here (a sample that already ended breaks alignment). */
  isAligned: boolean;
  /** The action most samples took here (first seen wins a tie); null when all have ended. */
  majority: string | null;
};

export type GroupAlignment = {
  /** The first position where not all samples chose the same tool + arguments; null if none. */
  firstDivergence: number | null;
  rows: StepAlignment[];
};

/** Canonical JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same arguments. */
export function canonicalJson(value: Json | undefined): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
}

export function actionKey(step: ChosenAction): string {
  return `${step.tool} ${canonicalJson(step.arguments)}`;
}

/**
 * Aligns samples position by position. Rollouts of different lengths diverge where the shorter
 * one stops (one sample ended while another acted). Fewer than two samples never diverge.
 */
export function alignRollouts(samples: readonly (readonly ChosenAction[])[]): GroupAlignment {
  const length = samples.reduce((max, steps) => Math.max(max, steps.length), 0);
  const rows: StepAlignment[] = [];
  let firstDivergence: number | null = null;
  for (let position = 0; position < length; position += 1) {
    const keys = samples.map((steps) => {
      const step = steps[position];
      return step ? actionKey(step) : null;
    });
    const isAligned = keys.every((key) => key !== null && key === keys[0]);
    if (!isAligned && firstDivergence === null && samples.length > 1) firstDivergence = position;
    rows.push({
      position,
      keys,
      isAligned: isAligned || samples.length < 2,
      majority: mostCommon(keys),
    });
  }
  return { firstDivergence, rows };
}

function mostCommon(keys: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const key of keys) {
    if (key === null) continue;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (best === null || count > counts.get(best)!) best = key;
  }
  return best;
}

export type GroupRewardStats = {
  mean: number;
  /** Population std, what GRPO divides by. */
  std: number;
  /** All rewards equal: every advantage is 0 and the group teaches the policy nothing. */
  isFlat: boolean;
  /** Group-normalized advantages, in sample order (what the trainer computed). */
  advantages: number[];
};

export function groupRewardStats(rewards: readonly number[]): GroupRewardStats {
  const n = rewards.length;
  const mean = n === 0 ? 0 : rewards.reduce((a, b) => a + b, 0) / n;
  const variance = n === 0 ? 0 : rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / n;
  const advantages = groupAdvantages(rewards);
  return {
    mean,
    std: Math.sqrt(variance),
    isFlat: advantages.every((a) => a === 0),
    advantages,
  };
}

/** The divergence sentence the group page shows (and the e2e spec expects). */
export function divergenceText(alignment: GroupAlignment, sampleCount: number): string {
  if (sampleCount < 2) return "Only one rollout in this group: nothing to compare.";
  return alignment.firstDivergence === null
    ? "All rollouts take the same actions."
    : `Rollouts diverge at step ${alignment.firstDivergence + 1}`;
}

import type { Rng } from "../../rng";

export type Distribution = { probs: Float64Array; entropy: number };

export function scoreCandidates(
  weights: Float64Array,
  features: readonly Int32Array[],
): Float64Array {
  const scores = new Float64Array(features.length);
  for (let i = 0; i < features.length; i++) {
    const feats = features[i] as Int32Array;
    let s = 0;
    for (let j = 0; j < feats.length; j++) s += weights[feats[j] as number] as number;
    scores[i] = s;
  }
  return scores;
}

/** Softmax at temperature 1 (the policy's own distribution) and its entropy in nats. */
export function softmax(scores: Float64Array): Distribution {
  let max = -Infinity;
  for (const s of scores) if (s > max) max = s;
  const probs = new Float64Array(scores.length);
  let sum = 0;
  for (let i = 0; i < scores.length; i++) {
    const e = Math.exp((scores[i] as number) - max);
    probs[i] = e;
    sum += e;
  }
  let entropy = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = (probs[i] as number) / sum;
    probs[i] = p;
    if (p > 0) entropy -= p * Math.log(p);
  }
  return { probs, entropy };
}

/** Samples at `temperature`; 0 means greedy (first best on ties, so it is deterministic). */
export function chooseAction(
  scores: Float64Array,
  probs: Float64Array,
  temperature: number,
  rng: Rng,
) {
  if (temperature <= 0) {
    let best = 0;
    for (let i = 1; i < scores.length; i++)
      if ((scores[i] as number) > (scores[best] as number)) best = i;
    return best;
  }
  let dist = probs;
  if (temperature !== 1) {
    const scaled = new Float64Array(scores.length);
    for (let i = 0; i < scores.length; i++) scaled[i] = (scores[i] as number) / temperature;
    dist = softmax(scaled).probs;
  }
  let u = rng.next();
  for (let i = 0; i < dist.length; i++) {
    u -= dist[i] as number;
    if (u < 0) return i;
  }
  return dist.length - 1;
}

import type { PolicyCheckpoint } from "../../types";
import { FEATURE_DIM } from "./features";

export const BUILTIN_POLICY_KIND = "builtin/loglinear-v1";

const decoded = new WeakMap<PolicyCheckpoint, Float64Array>();

/** Sparse JSON: [index, weight] pairs sorted by index, weights rounded to keep JSON small and stable. */
export function encodeCheckpoint(
  weights: Float64Array,
  version: number,
  note: string,
): PolicyCheckpoint {
  const entries: number[][] = [];
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i] as number;
    if (w !== 0) entries.push([i, Math.round(w * 1e6) / 1e6]);
  }
  const checkpoint: PolicyCheckpoint = {
    kind: BUILTIN_POLICY_KIND,
    version,
    payload: { dim: weights.length, note, weights: entries },
  };
  return checkpoint;
}

/** Dense weights for a checkpoint; decoded once per checkpoint object. */
export function decodeCheckpoint(checkpoint: PolicyCheckpoint): Float64Array {
  const cached = decoded.get(checkpoint);
  if (cached) return cached;
  if (checkpoint.kind !== BUILTIN_POLICY_KIND) {
    throw new Error(`the builtin agent cannot load a "${checkpoint.kind}" checkpoint`);
  }
  const dim = Number(checkpoint.payload.dim ?? FEATURE_DIM);
  if (dim !== FEATURE_DIM)
    throw new Error(`checkpoint has ${dim} features, expected ${FEATURE_DIM}`);
  const weights = new Float64Array(dim);
  for (const entry of checkpoint.payload.weights as number[][]) {
    weights[entry[0] as number] = entry[1] as number;
  }
  decoded.set(checkpoint, weights);
  return weights;
}

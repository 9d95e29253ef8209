import type { SignalKind } from "../types";

/**
 * Splits a budget across signal kinds by weight, over the kinds that actually fired (a kind with
 * no signals gives its share to the others). Largest-remainder rounding, ties in kind order.
 */
export function allocateBudget(
  budget: number,
  weights: Readonly<Record<SignalKind, number>>,
  present: ReadonlySet<SignalKind>,
): Record<SignalKind, number> {
  const kinds: SignalKind[] = (["forgetting", "boundary", "rare"] as const).filter(
    (k) => present.has(k) && weights[k] > 0,
  );
  const out: Record<SignalKind, number> = { forgetting: 0, boundary: 0, rare: 0 };
  const total = kinds.reduce((a, k) => a + weights[k], 0);
  if (total <= 0 || budget <= 0) return out;
  const exact = kinds.map((k) => ({ k, x: (budget * weights[k]) / total }));
  let used = 0;
  for (const e of exact) {
    out[e.k] = Math.floor(e.x);
    used += out[e.k];
  }
  const byRemainder = [...exact].sort((a, b) => b.x - Math.floor(b.x) - (a.x - Math.floor(a.x)));
  for (let i = 0; used < budget && i < byRemainder.length; i++, used++) {
    out[byRemainder[i]!.k] += 1;
  }
  return out;
}

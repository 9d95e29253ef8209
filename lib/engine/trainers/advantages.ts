/**
 * Group-normalized advantages (GRPO): (r − mean) / std within a group of samples of one task.
 * A group whose rewards are all equal has no signal — every advantage is 0 — which is why data at
 * the agent's frontier matters.
 */
export function groupAdvantages(rewards: readonly number[]): number[] {
  const n = rewards.length;
  if (n === 0) return [];
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const variance = rewards.reduce((a, r) => a + (r - mean) * (r - mean), 0) / n;
  if (variance < 1e-12) return rewards.map(() => 0);
  const std = Math.sqrt(variance);
  return rewards.map((r) => (r - mean) / std);
}

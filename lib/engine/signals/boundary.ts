import type { GroupOutcome, Signal, Trajectory } from "../types";
import { round } from "./forgetting";

export type BoundaryOptions = { entropyWeight: number };

/**
 * Boundary / uncertainty: pass rate strictly between 0 and 1. Scored highest at 0.5 (the most
 * informative GRPO group), raised by high step entropy (the policy is unsure what to do).
 */
export function detectBoundary(
  generation: number,
  outcomes: readonly GroupOutcome[],
  trajectories: readonly Trajectory[],
  options: BoundaryOptions,
): Signal[] {
  const signals: Signal[] = [];
  const w = options.entropyWeight;
  for (const o of outcomes) {
    if (o.passRate <= 0 || o.passRate >= 1) continue;
    const closeness = 1 - 2 * Math.abs(o.passRate - 0.5);
    const uncertainty = Math.min(1, o.meanEntropy / Math.log(10));
    const failed = trajectories.find((t) => t.taskId === o.taskId && !t.success);
    signals.push({
      id: `boundary:${generation}:${o.taskId}`,
      generation,
      kind: "boundary",
      score: round((1 - w) * closeness + w * uncertainty),
      taskId: o.taskId,
      trajectoryId: failed?.id ?? null,
      skill: o.skill,
      level: o.level,
      details: {
        passRate: round(o.passRate),
        meanEntropy: round(o.meanEntropy),
        samples: o.samples,
        meanSteps: round(o.meanSteps),
      },
    });
  }
  return signals;
}

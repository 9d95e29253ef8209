export type TrainingBudgetPoint = {
  runId: number;
  generation: number;
  /** Training rollouts and environment steps spent in the round that produced this generation. */
  trainRollouts: number;
  trainEnvSteps: number;
};

export type CumulativeBudget = {
  generation: number;
  rollouts: number;
  envSteps: number;
};

/** Per run, training spent up to and including each generation (a fair comparison reports it). */
export function cumulativeBudget(
  points: readonly TrainingBudgetPoint[],
): Map<number, CumulativeBudget[]> {
  const byRun = new Map<number, TrainingBudgetPoint[]>();
  for (const p of points) byRun.set(p.runId, [...(byRun.get(p.runId) ?? []), p]);
  const result = new Map<number, CumulativeBudget[]>();
  for (const [runId, rows] of byRun) {
    let rollouts = 0;
    let envSteps = 0;
    result.set(
      runId,
      [...rows]
        .sort((a, b) => a.generation - b.generation)
        .map((row) => {
          rollouts += row.trainRollouts;
          envSteps += row.trainEnvSteps;
          return { generation: row.generation, rollouts, envSteps };
        }),
    );
  }
  return result;
}

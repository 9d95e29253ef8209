import type { Agent, Environment } from "./interfaces";
import { deriveSeed } from "./rng";
import type { PolicyCheckpoint, RolloutPurpose, Task, Trajectory } from "./types";

export type RolloutItem = { task: Task; sampleIndices: number[] };

export type RolloutBatchInput = {
  runSeed: number;
  generation: number;
  purpose: RolloutPurpose;
  policy: PolicyCheckpoint;
  temperature: number;
  items: RolloutItem[];
};

export type RolloutDeps = { environment: Environment; agent: Agent };

export function trajectoryId(
  purpose: RolloutPurpose,
  generation: number,
  taskId: string,
  sampleIndex: number,
): string {
  return `${purpose}:${generation}:${taskId}:${sampleIndex}`;
}

/** Each episode's randomness depends only on what it is, never on batch layout or worker. */
export function episodeSeed(
  runSeed: number,
  generation: number,
  taskId: string,
  sampleIndex: number,
  purpose: RolloutPurpose,
): number {
  return deriveSeed("episode", runSeed, generation, taskId, sampleIndex, purpose);
}

/**
 * Rolls out one batch of (task, sample) pairs with a fixed policy. The job layer splits a
 * generation's rollouts into many such batches across workers; any split gives the same
 * trajectories, and a retried batch reproduces its results exactly.
 */
export async function rolloutBatch(
  deps: RolloutDeps,
  input: RolloutBatchInput,
): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (const item of input.items) {
    for (const sampleIndex of item.sampleIndices) {
      const session = await deps.environment.openEpisode(item.task);
      try {
        const seed = episodeSeed(
          input.runSeed,
          input.generation,
          item.task.id,
          sampleIndex,
          input.purpose,
        );
        const result = await deps.agent.runEpisode({
          task: item.task,
          session,
          policy: input.policy,
          seed,
          temperature: input.temperature,
        });
        const outcome = await session.score();
        const entropies = result.steps.map((s) => s.entropy).filter((e): e is number => e !== null);
        out.push({
          id: trajectoryId(input.purpose, input.generation, item.task.id, sampleIndex),
          taskId: item.task.id,
          generation: input.generation,
          purpose: input.purpose,
          sampleIndex,
          policyVersion: input.policy.version,
          steps: result.steps,
          reward: outcome.reward,
          success: outcome.success,
          sideEffect: outcome.sideEffect,
          stepCount: result.steps.length,
          meanEntropy:
            entropies.length === 0 ? 0 : entropies.reduce((a, b) => a + b, 0) / entropies.length,
          answer: outcome.answer,
          endReason: result.endReason,
          failure: outcome.failure,
        });
      } finally {
        await session.close?.();
      }
    }
  }
  return out;
}

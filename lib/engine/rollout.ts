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

type RolloutJob = { task: Task; sampleIndex: number };

/**
 * Rolls out one batch of (task, sample) pairs with a fixed policy. The job layer splits a
 * generation's rollouts into many such batches across workers; any split gives the same
 * trajectories, and a retried batch reproduces its results exactly. Up to `agent.concurrency`
 * episodes run at once (remote agents wait on the network); the output keeps the input order.
 */
export async function rolloutBatch(
  deps: RolloutDeps,
  input: RolloutBatchInput,
): Promise<Trajectory[]> {
  const jobs: RolloutJob[] = input.items.flatMap((item) =>
    item.sampleIndices.map((sampleIndex) => ({ task: item.task, sampleIndex })),
  );
  const out: Trajectory[] = new Array<Trajectory>(jobs.length);
  const width = Math.max(1, Math.min(jobs.length, Math.floor(deps.agent.concurrency ?? 1)));
  let next = 0;
  // Once one episode throws the batch has failed (the job layer retries it whole): the other
  // workers stop taking episodes instead of opening sessions and calling models for nothing.
  let hasFailed = false;
  const worker = async () => {
    while (!hasFailed && next < jobs.length) {
      const at = next++;
      try {
        out[at] = await rolloutOne(deps, input, jobs[at] as RolloutJob);
      } catch (error) {
        hasFailed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

async function rolloutOne(
  deps: RolloutDeps,
  input: RolloutBatchInput,
  { task, sampleIndex }: RolloutJob,
): Promise<Trajectory> {
  const session = await deps.environment.openEpisode(task);
  try {
    const seed = episodeSeed(input.runSeed, input.generation, task.id, sampleIndex, input.purpose);
    const result = await deps.agent.runEpisode({
      task,
      session,
      policy: input.policy,
      seed,
      temperature: input.temperature,
    });
    const outcome = await session.score();
    const entropies = result.steps.map((s) => s.entropy).filter((e): e is number => e !== null);
    const trajectory: Trajectory = {
      id: trajectoryId(input.purpose, input.generation, task.id, sampleIndex),
      taskId: task.id,
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
    };
    // Optional keys only when present, so builtin trajectories stay byte-identical to before.
    if (result.usage) trajectory.usage = result.usage;
    if (result.error !== undefined) trajectory.error = result.error;
    return trajectory;
  } finally {
    await session.close?.();
  }
}

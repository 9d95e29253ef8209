import { decodeCheckpoint, encodeCheckpoint } from "../agents/builtin/checkpoint";
import { FEATURE_DIM } from "../agents/builtin/features";
import type { Environment, Trainer, TrainRequest, TrainingGroup } from "../interfaces";
import type { JsonObject, Task, ToolCall, TrainReport, Trajectory } from "../types";
import { groupAdvantages } from "./advantages";
import {
  accumulateDecision,
  distance,
  pullTowardBase,
  SparseGradient,
  type WeightedDecision,
} from "./policy-gradient";
import { replayDecisions, replayDecisionsRemote, type DecisionPoint } from "./replay";

export const BUILTIN_TRAINER_ID = "builtin-grpo";

type PreparedGroup = { decisions: WeightedDecision[]; trajectories: number; steps: number };

/** Canonical order so the update is identical however the rollouts were batched or stored. */
export function sortGroups(groups: readonly TrainingGroup[]): TrainingGroup[] {
  const key = (g: TrainingGroup) =>
    `${g.task.id}#${String(Math.min(...g.trajectories.map((t) => t.sampleIndex))).padStart(8, "0")}`;
  return [...groups]
    .map((g) => ({
      ...g,
      trajectories: [...g.trajectories].sort((a, b) => a.sampleIndex - b.sampleIndex),
    }))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

type RecordedCalls = Array<{
  call: { tool: string; arguments: JsonObject };
  probability: number | null;
}>;

const recordedCalls = (trajectory: Trajectory): RecordedCalls =>
  trajectory.steps.map((s) => ({
    call: { tool: s.tool, arguments: s.arguments },
    probability: s.probability,
  }));

/**
 * Rebuilds one trajectory's decision points: in-process when the environment offers it, otherwise
 * by replaying the calls through a fresh episode that can describe its candidates (an HTTP
 * environment serving `view`).
 */
async function replayTrajectory(
  environment: Environment,
  task: Task,
  trajectory: Trajectory,
): Promise<DecisionPoint[]> {
  if (environment.local) {
    return replayDecisions(environment.local.openEpisode(task), recordedCalls(trajectory));
  }
  const session = await environment.openEpisode(task);
  try {
    if (!session.view) {
      throw new Error(
        "the builtin trainer replays trajectories over candidate views: the environment must run in-process or offer view() on its episodes",
      );
    }
    const viewable = {
      maxSteps: session.maxSteps,
      view: () => session.view!(),
      step: (call: ToolCall) => session.step(call),
    };
    return await replayDecisionsRemote(viewable, recordedCalls(trajectory));
  } finally {
    await session.close?.();
  }
}

async function prepareGroup(
  environment: Environment,
  group: TrainingGroup,
): Promise<PreparedGroup | null> {
  const advantages = groupAdvantages(group.trajectories.map((t) => t.reward));
  if (advantages.every((a) => a === 0)) return null;
  const decisions: WeightedDecision[] = [];
  const scale = group.trajectories.length;
  let steps = 0;
  for (const [i, trajectory] of group.trajectories.entries()) {
    const advantage = advantages[i] as number;
    if (advantage === 0) continue;
    const points = await replayTrajectory(environment, group.task, trajectory);
    steps += points.length;
    for (const p of points) decisions.push({ ...p, advantage, scale });
  }
  return { decisions, trajectories: group.trajectories.length, steps };
}

/**
 * GRPO for the builtin log-linear policy: group-normalized advantages, clipped policy-gradient
 * updates over minibatches of groups, and an L2 pull toward the base policy that keeps seeds
 * from drifting apart. Deterministic given its inputs.
 */
export function createGrpoTrainer(environment: Environment): Trainer {
  return {
    id: BUILTIN_TRAINER_ID,
    async train(request: TrainRequest) {
      const { settings } = request;
      const weights = Float64Array.from(decodeCheckpoint(request.policy));
      const base = decodeCheckpoint(request.base);
      const groups = sortGroups(request.groups);
      const prepared: PreparedGroup[] = [];
      for (const group of groups) {
        const ready = await prepareGroup(environment, group);
        if (ready) prepared.push(ready);
      }
      const gradient = new SparseGradient(FEATURE_DIM);
      let clipped = 0;
      let updates = 0;
      let normSum = 0;
      const size = Math.max(1, settings.minibatchGroups);
      for (let epoch = 0; epoch < settings.epochs; epoch++) {
        for (let start = 0; start < prepared.length; start += size) {
          const batch = prepared.slice(start, start + size);
          for (const group of batch) {
            for (const decision of group.decisions) {
              // Mean over a nominal minibatch of `size` groups × G samples, so a short last
              // minibatch (or a round with one informative group) never takes an oversized step.
              const scaled = { ...decision, scale: decision.scale * size };
              if (accumulateDecision(weights, scaled, gradient, settings.clipEpsilon)) clipped++;
            }
          }
          normSum += gradient.applyTo(weights, settings.learningRate);
          pullTowardBase(weights, base, settings.learningRate, settings.l2ToBase);
          updates++;
        }
      }
      const report: TrainReport = {
        groups: groups.length,
        informativeGroups: prepared.length,
        trajectories: groups.reduce((a, g) => a + g.trajectories.length, 0),
        steps: prepared.reduce((a, g) => a + g.steps, 0),
        clippedSteps: clipped,
        gradientNorm: updates === 0 ? 0 : normSum / updates,
        weightDriftFromBase: distance(weights, base),
      };
      return {
        policy:
          prepared.length === 0
            ? { ...request.policy, version: request.nextVersion }
            : encodeCheckpoint(weights, request.nextVersion, "grpo"),
        report,
      };
    },
  };
}

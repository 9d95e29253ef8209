import type { CandidateAction, CandidateView, EpisodeStepResult } from "../../environment-types";
import type {
  Agent,
  EpisodeRequest,
  EpisodeResult,
  EpisodeSession,
  LocalEpisode,
} from "../../interfaces";
import { createRng, type Rng } from "../../rng";
import type { TrajectoryStep } from "../../types";
import { decodeCheckpoint } from "./checkpoint";
import { extractFeatures } from "./features";
import { chooseAction, scoreCandidates, softmax } from "./policy";

export const BUILTIN_AGENT_ID = "builtin";

export type PolicyDecision = {
  candidates: CandidateAction[];
  /** The policy's own distribution (temperature 1) over `candidates`, and its entropy. */
  probs: Float64Array;
  entropy: number;
  choice: number;
};

/**
 * The policy's next action given what is on offer (`view`) at step `stepIndex`, or null when
 * nothing can be done. The one decision rule for in-process episodes, remote episodes and the
 * OpenAI-compatible policy server, so all draw exactly the same actions from the same seed.
 */
export function decideFromView(
  view: CandidateView,
  stepIndex: number,
  weights: Float64Array,
  temperature: number,
  rng: Rng,
): PolicyDecision | null {
  if (view.candidates.length === 0) return null;
  const features = extractFeatures(view, stepIndex);
  const scores = scoreCandidates(weights, features);
  const { probs, entropy } = softmax(scores);
  const choice = chooseAction(scores, probs, temperature, rng);
  return { candidates: view.candidates, probs, entropy, choice };
}

/**
 * The policy's next action in `episode`, sampled at `temperature` from `rng` (one draw when
 * temperature > 0), or null when nothing can be done.
 */
export function decideStep(
  episode: LocalEpisode,
  weights: Float64Array,
  temperature: number,
  rng: Rng,
): PolicyDecision | null {
  return decideFromView(episode.view(), episode.stepIndex, weights, temperature, rng);
}

function recordStep(
  index: number,
  decision: PolicyDecision,
  result: EpisodeStepResult,
): TrajectoryStep {
  const { candidates, probs, entropy, choice } = decision;
  const call = candidates[choice]!.call;
  return {
    index,
    tool: call.tool,
    arguments: call.arguments,
    observation: result.observation,
    probability: probs[choice] as number,
    entropy,
    candidateCount: candidates.length,
    isError: result.isError,
  };
}

/**
 * Runs one episode synchronously. Exported for the in-process fast paths (benchmarks, base-policy
 * evaluation); the Agent interface wraps it.
 */
export function playEpisode(
  episode: LocalEpisode,
  weights: Float64Array,
  seed: number,
  temperature: number,
): EpisodeResult {
  const rng = createRng(seed);
  const steps: TrajectoryStep[] = [];
  while (!episode.isDone) {
    const decision = decideStep(episode, weights, temperature, rng);
    if (!decision) break;
    const call = decision.candidates[decision.choice]!.call;
    const index = episode.stepIndex;
    steps.push(recordStep(index, decision, episode.stepSync(call)));
    if (call.tool === "finish") return { steps, endReason: "finish" };
  }
  return { steps, endReason: "max_steps" };
}

export type RemoteEpisode = Pick<EpisodeSession, "maxSteps" | "step"> & {
  view(): Promise<CandidateView>;
};

/**
 * The same loop over an asynchronous session (e.g. an HTTP environment): candidates come from
 * `session.view()`, and the step count and end come from the step results, so a remote episode
 * yields exactly the trajectory the in-process one would.
 */
export async function playRemoteEpisode(
  session: RemoteEpisode,
  weights: Float64Array,
  seed: number,
  temperature: number,
): Promise<EpisodeResult> {
  const rng = createRng(seed);
  const steps: TrajectoryStep[] = [];
  let done = session.maxSteps <= 0;
  // Bounded here too: a server that only ends episodes on `finish` must not loop forever.
  while (!done && steps.length < session.maxSteps) {
    const index = steps.length;
    const decision = decideFromView(await session.view(), index, weights, temperature, rng);
    if (!decision) break;
    const call = decision.candidates[decision.choice]!.call;
    const result = await session.step(call);
    steps.push(recordStep(index, decision, result));
    if (call.tool === "finish") return { steps, endReason: "finish" };
    done = result.isDone;
  }
  return { steps, endReason: "max_steps" };
}

/** The learnable log-linear policy over the environment's candidate actions. */
export function createBuiltinAgent(): Agent {
  return {
    id: BUILTIN_AGENT_ID,
    async runEpisode(request: EpisodeRequest): Promise<EpisodeResult> {
      const { session } = request;
      const weights = decodeCheckpoint(request.policy);
      if (session.local) {
        return playEpisode(session.local, weights, request.seed, request.temperature);
      }
      if (!session.view) {
        throw new Error(
          "the builtin agent needs an environment that describes its candidate actions (an in-process episode or a session with view())",
        );
      }
      const remote: RemoteEpisode = {
        maxSteps: session.maxSteps,
        step: (call) => session.step(call),
        view: () => session.view!(),
      };
      return playRemoteEpisode(remote, weights, request.seed, request.temperature);
    },
  };
}

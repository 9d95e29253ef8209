import type { Agent, EpisodeRequest, EpisodeResult, LocalEpisode } from "../../interfaces";
import type { CandidateAction } from "../../environment-types";
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
 * The policy's next action in `episode`, sampled at `temperature` from `rng` (one draw when
 * temperature > 0), or null when nothing can be done. Shared by playEpisode and the
 * OpenAI-compatible policy server, so both draw exactly the same actions from the same seed.
 */
export function decideStep(
  episode: LocalEpisode,
  weights: Float64Array,
  temperature: number,
  rng: Rng,
): PolicyDecision | null {
  const view = episode.view();
  if (view.candidates.length === 0) return null;
  const features = extractFeatures(view, episode.stepIndex);
  const scores = scoreCandidates(weights, features);
  const { probs, entropy } = softmax(scores);
  const choice = chooseAction(scores, probs, temperature, rng);
  return { candidates: view.candidates, probs, entropy, choice };
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
  let endReason: EpisodeResult["endReason"] = "max_steps";
  while (!episode.isDone) {
    const decision = decideStep(episode, weights, temperature, rng);
    if (!decision) break;
    const { candidates, probs, entropy, choice } = decision;
    const candidate = candidates[choice]!;
    const index = episode.stepIndex;
    const result = episode.stepSync(candidate.call);
    steps.push({
      index,
      tool: candidate.call.tool,
      arguments: candidate.call.arguments,
      observation: result.observation,
      probability: probs[choice] as number,
      entropy,
      candidateCount: candidates.length,
      isError: result.isError,
    });
    if (candidate.call.tool === "finish") {
      endReason = "finish";
      break;
    }
  }
  return { steps, endReason };
}

/** The learnable log-linear policy over the environment's candidate actions. */
export function createBuiltinAgent(): Agent {
  return {
    id: BUILTIN_AGENT_ID,
    async runEpisode(request: EpisodeRequest): Promise<EpisodeResult> {
      const episode = request.session.local;
      if (!episode) {
        throw new Error(
          "the builtin agent needs an in-process environment that lists candidate actions",
        );
      }
      return playEpisode(
        episode,
        decodeCheckpoint(request.policy),
        request.seed,
        request.temperature,
      );
    },
  };
}

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

type Decision = { candidate: CandidateAction; probability: number; entropy: number };

/** One policy decision over the candidates on offer; the same for in-process and remote episodes. */
function decide(
  view: CandidateView,
  stepIndex: number,
  weights: Float64Array,
  temperature: number,
  rng: Rng,
): Decision {
  const features = extractFeatures(view, stepIndex);
  const scores = scoreCandidates(weights, features);
  const { probs, entropy } = softmax(scores);
  const choice = chooseAction(scores, probs, temperature, rng);
  return { candidate: view.candidates[choice]!, probability: probs[choice] as number, entropy };
}

function recordStep(
  index: number,
  decision: Decision,
  candidateCount: number,
  result: EpisodeStepResult,
): TrajectoryStep {
  return {
    index,
    tool: decision.candidate.call.tool,
    arguments: decision.candidate.call.arguments,
    observation: result.observation,
    probability: decision.probability,
    entropy: decision.entropy,
    candidateCount,
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
    const view = episode.view();
    if (view.candidates.length === 0) break;
    const index = episode.stepIndex;
    const decision = decide(view, index, weights, temperature, rng);
    const result = episode.stepSync(decision.candidate.call);
    steps.push(recordStep(index, decision, view.candidates.length, result));
    if (decision.candidate.call.tool === "finish") return { steps, endReason: "finish" };
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
  while (!done) {
    const view = await session.view();
    if (view.candidates.length === 0) break;
    const index = steps.length;
    const decision = decide(view, index, weights, temperature, rng);
    const result = await session.step(decision.candidate.call);
    steps.push(recordStep(index, decision, view.candidates.length, result));
    if (decision.candidate.call.tool === "finish") return { steps, endReason: "finish" };
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

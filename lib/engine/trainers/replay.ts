import { extractFeatures } from "../agents/builtin/features";
import { callKey } from "../calls";
import type { CandidateView, EpisodeStepResult } from "../environment-types";
import type { LocalEpisode } from "../interfaces";
import type { ToolCall } from "../types";

/** One decision point rebuilt from a stored trajectory: what was on offer and what was taken. */
export type DecisionPoint = {
  features: Int32Array[];
  chosen: number;
  /** Probability the acting policy gave the chosen action (for the PPO-style ratio), if recorded. */
  oldProbability: number | null;
};

/**
 * Replays recorded calls through a fresh episode to rebuild candidate lists and features, so a
 * trajectory stored as plain JSON is all training needs. Stops at the first call that was not a
 * candidate (e.g. from an agent that does not act over candidates): later steps are not scorable.
 */
export function replayDecisions(
  episode: LocalEpisode,
  calls: ReadonlyArray<{ call: ToolCall; probability: number | null }>,
): DecisionPoint[] {
  const points: DecisionPoint[] = [];
  for (const { call, probability } of calls) {
    if (episode.isDone) break;
    const view = episode.view();
    const key = callKey(call);
    const chosen = view.candidates.findIndex((c) => c.key === key);
    if (chosen < 0) break;
    points.push({
      features: extractFeatures(view, episode.stepIndex),
      chosen,
      oldProbability: probability,
    });
    episode.stepSync(call);
  }
  return points;
}

/** An episode reached over the network that can describe its candidates (see EpisodeSession.view). */
export type ViewableEpisode = {
  readonly maxSteps: number;
  view(): Promise<CandidateView>;
  step(call: ToolCall): Promise<EpisodeStepResult>;
};

/** `replayDecisions` over an asynchronous episode: the same decision points, one round trip each. */
export async function replayDecisionsRemote(
  episode: ViewableEpisode,
  calls: ReadonlyArray<{ call: ToolCall; probability: number | null }>,
): Promise<DecisionPoint[]> {
  const points: DecisionPoint[] = [];
  let done = episode.maxSteps <= 0;
  for (const { call, probability } of calls) {
    if (done) break;
    const view = await episode.view();
    const key = callKey(call);
    const chosen = view.candidates.findIndex((c) => c.key === key);
    if (chosen < 0) break;
    points.push({
      features: extractFeatures(view, points.length),
      chosen,
      oldProbability: probability,
    });
    done = (await episode.step(call)).isDone;
  }
  return points;
}

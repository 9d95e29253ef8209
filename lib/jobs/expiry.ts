import {
  httpEnvironmentOf,
  llmSynthesizerOf,
  openAiAgentOf,
  type RunConfig,
} from "@/lib/validations/run-config";

/**
 * How long a job may stay active before the queue presumes its worker dead and hands it to
 * another: the bound on recovery time after a `kill -9`. Builtin stages take well under a second
 * per batch. A job that outlives its expiry is not lost (its first worker still finishes and
 * commits; the duplicate changes nothing), only done twice, so runs with external parts get
 * expiries sized to what their endpoints may take.
 */
export const JOB_EXPIRY_SECONDS = 30;

/** Stage jobs of a run with a remote agent, environment or synthesizer (SEED, SYNTHESIZE, …). */
export const REMOTE_STAGE_EXPIRY_SECONDS = 30 * 60;

/** Steps an episode is assumed to take at most when sizing expiry (ToolWorld tops out below). */
const ASSUMED_MAX_STEPS = 16;
/** pg-boss refuses expiries of 24 hours or more. */
const MAX_EXPIRY_SECONDS = 23 * 60 * 60;
/** The agent's backoff cap between retries (agent.ts `maxMs`). */
const BACKOFF_SECONDS = 8;

type EndpointConfig = Pick<RunConfig, "agent" | "environment" | "synthesizer">;

/** Null when the run is all builtin (the queue default applies). */
export function stageExpirySeconds(config: EndpointConfig): number | null {
  return openAiAgentOf(config) || httpEnvironmentOf(config) || llmSynthesizerOf(config)
    ? REMOTE_STAGE_EXPIRY_SECONDS
    : null;
}

/**
 * A rollout batch of `episodes`: with an external agent, every model call of every episode timing
 * out through all its retries and backoff, the episodes sharing the agent's concurrency (capped
 * at 23 h); with only a remote environment, the remote stage expiry. Null when all builtin.
 */
export function rolloutBatchExpirySeconds(config: EndpointConfig, episodes: number): number | null {
  const agent = openAiAgentOf(config);
  const stage = stageExpirySeconds(config);
  if (!agent) return stage;
  const perCall = (agent.timeoutMs / 1000) * (agent.retries + 1) + BACKOFF_SECONDS * agent.retries;
  const waves = Math.ceil(Math.max(1, episodes) / agent.concurrency);
  const worst = Math.ceil(perCall * (ASSUMED_MAX_STEPS + 1) * waves);
  return Math.min(MAX_EXPIRY_SECONDS, Math.max(stage ?? JOB_EXPIRY_SECONDS, worst));
}

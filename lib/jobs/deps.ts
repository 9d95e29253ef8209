import { createHash } from "node:crypto";
import type { Pool } from "pg";
import { resolveConnectionSecret } from "@/lib/connections/resolve";
import { createOpenAiAgent } from "@/lib/engine/agents/openai/agent";
import { createBuiltinDeps, type EngineDeps } from "@/lib/engine/engine";
import { connectHttpEnvironment } from "@/lib/engine/environments/http/client";
import type { Agent, Environment, Synthesizer } from "@/lib/engine/interfaces";
import {
  createRuleSynthesizer,
  createUniformSynthesizer,
} from "@/lib/engine/synthesizers/rule-based";
import { llmSynthesizerFromConfig } from "@/lib/engine/synthesizers/llm";
import { createGrpoTrainer } from "@/lib/engine/trainers/grpo";
import type { PolicyCheckpoint } from "@/lib/engine/types";
import {
  httpEnvironmentOf,
  llmSynthesizerOf,
  openAiAgentOf,
  type HttpEnvironmentConfig,
  type OpenAiAgentConfig,
  type RunConfig,
} from "@/lib/validations/run-config";

/**
 * The engine parts a run's config asks for, for the worker. Builtin parts are the embedded
 * defaults; an OpenAI-compatible agent or an HTTP environment is built from the config plus the
 * API key of the connection it names, decrypted here and handed only to the client that sends it.
 */

export type RunDepsOptions = {
  db: Pick<Pool, "query">;
  runId: number;
  /** Opens saved API keys; defaults to COEVOLVE_SECRET_KEY or the data dir's key file. */
  secretKey?: Buffer;
};

/** The one place a run's synthesizer is chosen. */
export async function synthesizerFor(
  config: Pick<RunConfig, "mode" | "synthesizer">,
  options: RunDepsOptions,
): Promise<Synthesizer> {
  // The uniform control draws tasks without signals whatever synthesizer is configured.
  if (config.mode === "uniform") return createUniformSynthesizer();
  const llm = llmSynthesizerOf(config);
  if (!llm) return createRuleSynthesizer();
  const apiKey = await connectionKey(llm.connection, "openai", llm.baseUrl, options);
  return llmSynthesizerFromConfig(llm, { apiKey: apiKey ?? undefined });
}

export async function createRunDeps(
  config: RunConfig,
  options: RunDepsOptions,
): Promise<EngineDeps> {
  const remoteEnvironment = httpEnvironmentOf(config);
  const remoteAgent = openAiAgentOf(config);
  const builtin = createBuiltinDeps({
    mode: config.mode,
    environment: "toolworld",
    agent: "builtin",
  });
  const synthesizer = await synthesizerFor(config, options);
  if (!remoteEnvironment && !remoteAgent) return { ...builtin, synthesizer };

  const environment = remoteEnvironment
    ? await resolveRunEnvironment(config, options)
    : builtin.environment;
  return {
    environment,
    agent: remoteAgent ? await openAiAgent(remoteAgent, options) : builtin.agent,
    // The GRPO trainer replays tool calls through the environment's views, so it must use the
    // same (possibly remote) environment the rollouts ran in.
    trainer: remoteEnvironment ? createGrpoTrainer(environment) : builtin.trainer,
    synthesizer,
    validator: builtin.validator,
  };
}

/**
 * The environment a run's config names, for everything that needs it outside a round too
 * (export's tool schemas and reference solutions, import's validation): the builtin ToolWorld,
 * or the run's HTTP environment connected with its connection's key.
 */
export async function resolveRunEnvironment(
  config: Pick<RunConfig, "environment">,
  options: RunDepsOptions,
): Promise<Environment> {
  const remote = httpEnvironmentOf(config);
  if (!remote) {
    return createBuiltinDeps({ mode: "static", environment: "toolworld", agent: "builtin" })
      .environment;
  }
  return connectedEnvironment(remote, options);
}

/**
 * Clients cached per worker process: one HTTP environment connection (its /describe done once)
 * and one agent per run, config and key, so the agent's concurrency limit holds across the
 * batches a worker runs at once. A changed config or a rotated key makes a new entry.
 */
const MAX_CACHED = 32;
const environments = new Map<string, Promise<Environment>>();
const agents = new Map<string, Promise<Agent>>();

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

function cacheKey(runId: number, config: object, apiKey: string | null): string {
  const keyHash = apiKey ? createHash("sha256").update(apiKey).digest("hex") : "";
  return `${runId}\n${JSON.stringify(config)}\n${keyHash}`;
}

/** The key of the named connection, for a request to `sendTo` (its own server only). */
export async function connectionKey(
  name: string | undefined,
  kind: "openai" | "http-environment" | "trainer-webhook",
  sendTo: string,
  options: RunDepsOptions,
): Promise<string | null> {
  if (!name) return null;
  const resolved = await resolveConnectionSecret(options.db, {
    name,
    runId: options.runId,
    kind,
    sendTo,
    secretKey: options.secretKey,
  });
  return resolved.apiKey;
}

function redacted(error: unknown, secret: string | null): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(secret ? message.split(secret).join("[redacted]") : message);
}

async function connectedEnvironment(
  config: HttpEnvironmentConfig,
  options: RunDepsOptions,
): Promise<Environment> {
  const apiKey = await connectionKey(
    config.connection,
    "http-environment",
    config.baseUrl,
    options,
  );
  const key = cacheKey(options.runId, config, apiKey);
  const cached = environments.get(key);
  if (cached) return cached;
  const connecting = connectHttpEnvironment({
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
  }).catch((error: unknown) => {
    // A failed connect is not cached: the next job tries again.
    environments.delete(key);
    throw redacted(error, apiKey);
  });
  return remember(environments, key, connecting);
}

/**
 * The model a request names. `{run}` becomes the run's slug and `{version}` the policy version
 * of the rollout: `{run}@v{version}` is how the dashboard's own /api/openai/v1 names a run's
 * checkpoints, and a server with one adapter per version can be addressed the same way.
 */
export function modelNameFor(
  template: string,
  runSlug: string,
): string | ((policy: PolicyCheckpoint) => string) {
  const named = template.split("{run}").join(runSlug);
  if (!named.includes("{version}")) return named;
  return (policy) => named.split("{version}").join(String(policy.version));
}

async function runSlug(options: RunDepsOptions): Promise<string> {
  const { rows } = await options.db.query<{ slug: string }>(
    `SELECT slug FROM "Run" WHERE id = $1`,
    [options.runId],
  );
  if (!rows[0]) throw new Error(`run ${options.runId} does not exist`);
  return rows[0].slug;
}

async function openAiAgent(config: OpenAiAgentConfig, options: RunDepsOptions): Promise<Agent> {
  const apiKey = await connectionKey(config.connection, "openai", config.baseUrl, options);
  const key = cacheKey(options.runId, config, apiKey);
  const cached = agents.get(key);
  if (cached) return cached;
  // The promise is cached before anything is awaited, so loops building deps at the same moment
  // share one agent (and its concurrency limit).
  const building = (async () =>
    createOpenAiAgent({
      baseUrl: config.baseUrl,
      model: modelNameFor(
        config.model,
        config.model.includes("{run}") ? await runSlug(options) : "",
      ),
      apiKey: apiKey ?? undefined,
      concurrency: config.concurrency,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      requestLogprobs: config.requestLogprobs,
      topLogprobs: config.topLogprobs,
      maxTokens: config.maxTokens,
      temperature: config.temperature,
      sendTaskId: config.sendTaskId,
    }))().catch((error: unknown) => {
    agents.delete(key);
    throw error;
  });
  return remember(agents, key, building);
}

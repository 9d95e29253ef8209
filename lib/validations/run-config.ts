import { z } from "zod";
import { ConnectionNameSchema } from "./connection";
import {
  DEFAULT_PROMPT_TEMPLATE,
  PROMPT_PLACEHOLDERS,
  unknownPlaceholders,
} from "../engine/synthesizers/llm-prompt";

/**
 * One run's configuration, shared by the CLI, server actions and the API. Every field has a
 * default, so `RunConfigSchema.parse({})` is a complete, runnable configuration.
 *
 * Hyperparameter defaults were tuned on a dev task set (scripts/tune-engine.ts), never on the
 * held-out set.
 */

const probability = z.number().min(0).max(1);

export const RUN_MODES = ["coevolve", "static", "uniform"] as const;
export const REVIEW_MODES = ["manual", "auto", "auto-band"] as const;

export const SignalWeightsSchema = z.object({
  forgetting: z.number().min(0).default(1),
  boundary: z.number().min(0).default(1),
  rare: z.number().min(0).default(1),
});

export const TrainerConfigSchema = z.object({
  learningRate: z.number().positive().default(1),
  /** Strength of the L2 pull toward the base policy, per update. */
  l2ToBase: z.number().min(0).default(0.001),
  clipEpsilon: z.number().min(0).default(0.2),
  /** GRPO groups per gradient step. */
  minibatchGroups: z.number().int().positive().default(8),
  epochs: z.number().int().positive().default(3),
});

export const SignalConfigSchema = z.object({
  /** Pass rate that counts as "solved" for forgetting. */
  passThreshold: probability.default(0.5),
  /** Share of the boundary score that comes from step entropy (the rest: closeness to 0.5). */
  entropyWeight: probability.default(0.25),
  /** Generations of trajectories the rare signal looks back over. */
  rareWindow: z.number().int().positive().default(3),
  /** Fewer uses/successes than this in the window counts as rare (two GRPO groups' worth). */
  rareMinCount: z.number().int().positive().default(16),
  /** Rare cells beyond the skill's frontier + 1 are damped by this factor per level. */
  rareReachDecay: probability.default(0.75),
});

export const SynthesisConfigSchema = z.object({
  /** A boundary task passed at least this often gets a harder variant ("mostly passes"). */
  harderAbove: probability.default(0.5),
  /** Candidates per skill × level cell per round: targeting without tunnel vision. */
  maxPerCell: z.number().int().positive().default(4),
});

export const ReviewConfigSchema = z
  .object({
    mode: z.enum(REVIEW_MODES).default("auto"),
    /** Estimated-difficulty band for auto-band review, inclusive. */
    band: z.tuple([probability, probability]).default([0.15, 0.9]),
  })
  .refine((r) => r.band[0] <= r.band[1], { message: "band must be [low, high] with low ≤ high" });

export const BasePolicyConfigSchema = z.object({
  seed: z.number().int().default(0),
  /** Skills the base policy saw demonstrations of (level 1 only, like a base model). */
  demoSkills: z.array(z.string().min(1)).default(["lookup", "message", "organize"]),
  demosPerSkill: z.number().int().min(0).default(8),
  /** Two behaviour-cloning passes: ~20% dev success, mixed GRPO groups on easy tasks. */
  epochs: z.number().int().positive().default(2),
  learningRate: z.number().positive().default(0.5),
});

/**
 * A trainer outside this process (verl on Ray, OpenRLHF, TRL …). After the rollouts the worker
 * writes the round's GRPO groups to a JSONL file, then runs `command` (spawned with arguments,
 * never through a shell) or POSTs `webhook.url`; the trainer reports the new checkpoint to the
 * callback URL with a one-time token. See README "External trainer".
 */
export const ExternalTrainerSchema = z
  .object({
    kind: z.literal("external"),
    command: z
      .array(z.string().min(1, "command arguments cannot be empty"))
      .min(1, "command needs at least the program to run")
      .optional(),
    webhook: z
      .object({
        url: z.url({ protocol: /^https?$/, error: "webhook.url must be an http(s) URL" }),
        /** A saved connection whose API key is sent as `Authorization: Bearer …`. */
        connection: z.string().min(1).optional(),
      })
      .optional(),
    /** How long the round waits for the checkpoint report before it fails (fractions allowed). */
    timeoutMinutes: z
      .number()
      .positive("timeoutMinutes must be more than 0")
      .max(7 * 24 * 60, "timeoutMinutes is at most a week (10080)")
      .default(60),
    /** Lines of the training data file: see lib/jobs/external-trainer.ts `writeTrainingData`. */
    dataFormat: z.literal("grpo-jsonl").default("grpo-jsonl"),
  })
  .refine((t) => (t.command === undefined) !== (t.webhook === undefined), {
    message: "an external trainer needs exactly one of command or webhook",
  });

export const TrainerSchema = z
  .union([z.literal("builtin-grpo"), ExternalTrainerSchema], {
    error: 'trainer must be "builtin-grpo" or { kind: "external", command | webhook, … }',
  })
  .default("builtin-grpo");

export type ExternalTrainerConfig = z.infer<typeof ExternalTrainerSchema>;

export function externalTrainerOf(
  config: Pick<RunConfig, "trainer">,
): ExternalTrainerConfig | null {
  return typeof config.trainer === "object" ? config.trainer : null;
}

const connectionName = ConnectionNameSchema;

// A missing field becomes "" so the union keeps the object branch and reports "is required"
// instead of its generic "must be … or …" message.
const present = (value: unknown) => value ?? "";

const httpUrl = (field: string) =>
  z.preprocess(
    present,
    z.url({
      protocol: /^https?$/,
      error: (issue) =>
        issue.input === "" ? `${field} is required` : `${field} must be an http(s) URL`,
    }),
  );

/**
 * An agent behind any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama,
 * llama.cpp server, OpenAI, this project's /api/openai/v1). The API key is never here: `connection`
 * names a saved openai connection whose key the worker decrypts right before calling.
 */
export const OpenAiAgentConfigSchema = z.object({
  kind: z.literal("openai"),
  /** Up to and including `/v1`. */
  baseUrl: httpUrl("agent.baseUrl"),
  /**
   * The served model name. `{run}` becomes the run's slug, `{version}` the policy version of the
   * rollout (`{run}@v{version}` addresses this dashboard's own /api/openai/v1 endpoint).
   */
  model: z.preprocess(
    present,
    z.string().trim().min(1, "agent.model is required (the served model name)").max(200),
  ),
  connection: connectionName.optional(),
  concurrency: z
    .number()
    .int("agent.concurrency must be a whole number")
    .min(1, "agent.concurrency must be at least 1")
    .max(256, "agent.concurrency is at most 256")
    .default(4),
  timeoutMs: z
    .number()
    .int()
    .min(1_000, "agent.timeoutMs must be at least 1000 (1 s)")
    .max(600_000, "agent.timeoutMs is at most 600000 (10 min)")
    .default(60_000),
  retries: z
    .number()
    .int()
    .min(0, "agent.retries cannot be negative")
    .max(10, "agent.retries is at most 10")
    .default(3),
  requestLogprobs: z.boolean().default(false),
  /** Alternatives per token with `requestLogprobs`; lets step entropy be estimated. */
  topLogprobs: z.number().int().min(0).max(1000).default(0),
  maxTokens: z.number().int().positive("agent.maxTokens must be more than 0").optional(),
  /** Overrides the round's rollout/eval temperature (for models that need a fixed one). */
  temperature: z.number().min(0, "agent.temperature cannot be negative").max(2).optional(),
  /** Send `metadata.task_id` (only this project's policy server reads it; hosted APIs may refuse). */
  sendTaskId: z.boolean().default(false),
});

/** An environment server speaking the coevolve-env/1 HTTP protocol (lib/engine/environments/http). */
export const HttpEnvironmentConfigSchema = z.object({
  kind: z.literal("http"),
  baseUrl: httpUrl("environment.baseUrl"),
  /** A saved http-environment connection whose key is sent as `Authorization: Bearer …`. */
  connection: connectionName.optional(),
  timeoutMs: z
    .number()
    .int()
    .min(1_000, "environment.timeoutMs must be at least 1000 (1 s)")
    .max(600_000, "environment.timeoutMs is at most 600000 (10 min)")
    .optional(),
});

export const AgentSchema = z
  .union([z.literal("builtin"), OpenAiAgentConfigSchema], {
    error: 'agent must be "builtin" or { kind: "openai", baseUrl, model, … }',
  })
  .default("builtin");

export const EnvironmentSchema = z
  .union([z.literal("toolworld"), HttpEnvironmentConfigSchema], {
    error: 'environment must be "toolworld" or { kind: "http", baseUrl, … }',
  })
  .default("toolworld");

export type OpenAiAgentConfig = z.infer<typeof OpenAiAgentConfigSchema>;
export type HttpEnvironmentConfig = z.infer<typeof HttpEnvironmentConfigSchema>;

export function openAiAgentOf(config: Pick<RunConfig, "agent">): OpenAiAgentConfig | null {
  return typeof config.agent === "object" ? config.agent : null;
}

export function httpEnvironmentOf(
  config: Pick<RunConfig, "environment">,
): HttpEnvironmentConfig | null {
  return typeof config.environment === "object" ? config.environment : null;
}

/** The Run row's `agent` and `environment` columns: short labels, never endpoints or keys. */
export function agentLabel(config: Pick<RunConfig, "agent">): string {
  return typeof config.agent === "object" ? config.agent.kind : config.agent;
}

export function environmentLabel(config: Pick<RunConfig, "environment">): string {
  return typeof config.environment === "object" ? config.environment.kind : config.environment;
}

export const PromptTemplateSchema = z
  .string()
  // Browsers submit textarea line breaks as CRLF.
  .overwrite((text) => text.replace(/\r\n?/g, "\n"))
  .trim()
  .min(1, "the prompt template cannot be empty")
  .max(50_000, "the prompt template is at most 50,000 characters")
  .superRefine((template, ctx) => {
    const unknown = unknownPlaceholders(template);
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `unknown placeholder${unknown.length === 1 ? "" : "s"} ${unknown.map((n) => `{{${n}}}`).join(", ")} (known: ${Object.keys(PROMPT_PLACEHOLDERS).join(", ")})`,
      });
    }
  });

/**
 * A synthesizer behind an OpenAI-compatible endpoint with structured output (vLLM, SGLang,
 * Ollama, OpenAI). The API key never lives in the config: `connection` names a saved connection.
 */
export const LlmSynthesizerSchema = z.object({
  kind: z.literal("llm"),
  baseUrl: httpUrl("synthesizer.baseUrl"),
  model: z.preprocess(
    present,
    z.string().trim().min(1, "synthesizer.model is required (the served model name)").max(200),
  ),
  /** A saved openai connection whose key is sent as `Authorization: Bearer …`. */
  connection: connectionName.optional(),
  promptTemplate: PromptTemplateSchema.default(DEFAULT_PROMPT_TEMPLATE),
  /** Requests in flight at once. */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Per request. */
  timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
  /** Extra attempts after a timeout, a 429 or a 5xx. */
  retries: z.number().int().min(0).max(10).default(3),
  /**
   * Send the signal and source task as `metadata.coevolve_synthesis`: only this project's policy
   * server (/api/openai/v1, `npm run chat:serve`) reads it; hosted APIs may refuse unknown fields.
   */
  sendContext: z.boolean().default(false),
});

export type LlmSynthesizerConfig = z.infer<typeof LlmSynthesizerSchema>;

export const SynthesizerSchema = z
  .union([z.literal("builtin"), LlmSynthesizerSchema], {
    error: 'synthesizer must be "builtin" or { kind: "llm", baseUrl, model, … }',
  })
  .default("builtin");

export function llmSynthesizerOf(
  config: Pick<RunConfig, "synthesizer">,
): LlmSynthesizerConfig | null {
  return typeof config.synthesizer === "object" ? config.synthesizer : null;
}

export const RunConfigSchema = z.object({
  mode: z.enum(RUN_MODES).default("coevolve"),
  seed: z.number().int().min(0).default(1),
  rounds: z.number().int().min(0).max(1000).default(10),
  environment: EnvironmentSchema,
  agent: AgentSchema,
  trainer: TrainerSchema,
  synthesizer: SynthesizerSchema,

  /** G: rollouts per task per round (one GRPO group). */
  groupSize: z.number().int().min(2).default(8),
  /** Pool slots per round; training rollouts per round = tasksPerRound × groupSize in every mode. */
  tasksPerRound: z.number().int().positive().default(96),
  /** Seed tasks (levels `seedLevels`, round-robin over skills): 2 per skill × level by default. */
  seedPoolSize: z.number().int().positive().default(28),
  seedLevels: z.array(z.number().int().min(1).max(5)).min(1).default([1, 2]),
  /** Held-out tasks per skill × level cell (7 skills × 5 levels). */
  heldoutPerCell: z.number().int().positive().default(4),
  rolloutTemperature: z.number().positive().default(1),
  /** 0 = greedy evaluation. */
  evalTemperature: z.number().min(0).default(0),

  trainerSettings: TrainerConfigSchema.prefault({}),
  /** Candidate tasks synthesized per round (before validation and curation). */
  synthesisBudget: z.number().int().min(0).default(96),
  signalWeights: SignalWeightsSchema.prefault({}),
  synthesis: SynthesisConfigSchema.prefault({}),
  signals: SignalConfigSchema.prefault({}),
  review: ReviewConfigSchema.prefault({}),
  /** Share of each pool given to replayed earlier tasks. */
  replayFraction: probability.default(0.25),
  base: BasePolicyConfigSchema.prefault({}),
});

export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
export type RunMode = RunConfig["mode"];

export function parseRunConfig(input: unknown): RunConfig {
  return RunConfigSchema.parse(input ?? {});
}

import type { Agent, EpisodeRequest, EpisodeResult } from "../../interfaces";
import { validateJsonSchema } from "../../json-schema";
import { createRng, deriveSeed } from "../../rng";
import type {
  Json,
  JsonObject,
  OpenAiTool,
  PolicyCheckpoint,
  TokenUsage,
  ToolCall,
  TrajectoryStep,
} from "../../types";
import { createSemaphore, type Semaphore } from "./semaphore";
import type { ChatCompletionRequest, ChatMessage, ChatToolCall, TokenLogprob } from "./wire";
import { encodeObservation } from "./wire";

export const OPENAI_AGENT_ID = "openai";

export type OpenAiAgentOptions = {
  /** Up to and including `/v1`, e.g. `http://localhost:8000/v1` (vLLM) or `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The served model name, or a function of the checkpoint a rollout asks for. */
  model: string | ((policy: PolicyCheckpoint) => string);
  /** Sent as `Authorization: Bearer …`; never logged, never in errors or trajectories. */
  apiKey?: string;
  /** Overrides the temperature the round asks for (e.g. a model that needs a fixed one). */
  temperature?: number;
  maxTokens?: number;
  /** Requests in flight at once per agent, across all its episodes. Default 4. */
  concurrency?: number;
  /** Per request, headers and body included. Default 60 s. */
  timeoutMs?: number;
  /** Extra attempts after a 429, a 5xx, a network error or a timeout. Default 3. */
  retries?: number;
  /** Exponential backoff: base·2^attempt, capped, times a jitter factor in [0.5, 1). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Ask for token log-probabilities (vLLM, OpenAI and this project's server give them). */
  requestLogprobs?: boolean;
  /** Alternatives per token when `requestLogprobs`; enables the entropy estimate. Default 0. */
  topLogprobs?: number;
  systemPrompt?: string;
  /**
   * Send `metadata: {task_id}` with every request. Only this project's policy server reads it;
   * leave off for hosted endpoints that reject unknown metadata.
   */
  sendTaskId?: boolean;
  /**
   * Malformed tool calls (unknown tool, arguments that are not a JSON object or fail the tool's
   * schema) answered to the model as an error tool message before the rollout fails. Default 0:
   * the first malformed call fails the rollout (endReason "agent_error").
   */
  repairAttempts?: number;
  /**
   * The environment's tool that ends an episode with an answer. A reply without tool calls is
   * submitted through it as `{answer: content}` (`{}` when empty). Default "finish".
   */
  answerTool?: string;
  id?: string;
  fetch?: typeof globalThis.fetch;
  /** Injected in tests; the default waits with setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source; the default is a PRNG seeded from the episode seed (reproducible waits). */
  random?: () => number;
};

const DEFAULTS = {
  concurrency: 4,
  timeoutMs: 60_000,
  retries: 3,
  baseMs: 500,
  maxMs: 8_000,
  answerTool: "finish",
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure that ends the rollout; `message` is already free of credentials. */
class RolloutFailure extends Error {}

type ParsedReply = {
  content: string | null;
  toolCalls: ChatToolCall[];
  rawToolCalls: unknown[];
  usage: TokenUsage;
  logprobs: TokenLogprob[] | null;
};

/**
 * An agent behind any OpenAI-compatible chat-completions endpoint with tool calling (vLLM,
 * SGLang, Ollama, llama.cpp server, OpenAI, or this project's builtin-policy server). The
 * environment's tools go out as function schemas; each tool call is executed in order and its
 * observation returned as a tool message, until the model replies without tool calls (its
 * answer) or the episode runs out of steps. Endpoint failures end that rollout with
 * endReason "agent_error" and a reason; runEpisode itself never throws for them.
 */
export function createOpenAiAgent(options: OpenAiAgentOptions): Agent {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new Error("the OpenAI agent's baseUrl is not a URL");
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`the OpenAI agent's baseUrl must be http(s), not ${base.protocol}`);
  }
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const printableEndpoint = describeUrl(endpoint);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULTS.concurrency));
  const gate: Semaphore = createSemaphore(concurrency);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? defaultSleep;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const retries = Math.max(0, Math.floor(options.retries ?? DEFAULTS.retries));
  const baseMs = options.backoff?.baseMs ?? DEFAULTS.baseMs;
  const maxMs = options.backoff?.maxMs ?? DEFAULTS.maxMs;
  const answerTool = options.answerTool ?? DEFAULTS.answerTool;
  const repairAttempts = Math.max(0, Math.floor(options.repairAttempts ?? 0));
  const redact = (text: string) =>
    options.apiKey ? text.split(options.apiKey).join("[redacted]") : text;

  async function post(body: ChatCompletionRequest, random: () => number): Promise<ParsedReply> {
    let lastReason = "";
    let retryAfterMs = 0;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
        // A server that says when to come back (429/503 Retry-After) is believed, within reason.
        await sleep(Math.max(Math.round(ceiling * (0.5 + 0.5 * random())), retryAfterMs));
      }
      const outcome = await gate.run(() => attemptOnce(body));
      if (outcome.kind === "ok") return outcome.reply;
      lastReason = outcome.reason;
      retryAfterMs = outcome.retryAfterMs ?? 0;
      if (!outcome.retryable) throw new RolloutFailure(outcome.reason);
    }
    const attempts = retries + 1;
    throw new RolloutFailure(
      `${lastReason} (gave up after ${attempts} attempt${attempts === 1 ? "" : "s"})`,
    );
  }

  type Attempt =
    | { kind: "ok"; reply: ParsedReply }
    | { kind: "fail"; reason: string; retryable: boolean; retryAfterMs?: number };

  async function attemptOnce(body: ChatCompletionRequest): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    try {
      let response: Response;
      let text: string;
      try {
        response = await doFetch(endpoint, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal: controller.signal,
        });
        text = await response.text();
      } catch (error) {
        if (controller.signal.aborted) {
          return {
            kind: "fail",
            reason: `chat completions at ${printableEndpoint} timed out after ${timeoutMs} ms`,
            retryable: true,
          };
        }
        return {
          kind: "fail",
          reason: redact(
            `chat completions at ${printableEndpoint} unreachable: ${describeError(error)}`,
          ),
          retryable: true,
        };
      }
      if (!response.ok) {
        const retryable = response.status === 429 || response.status >= 500;
        return {
          kind: "fail",
          reason: redact(
            `chat completions at ${printableEndpoint} answered HTTP ${response.status}: ${snippet(errorMessageOf(text))}`,
          ),
          retryable,
          retryAfterMs: retryAfterOf(response.headers.get("retry-after")),
        };
      }
      const parsed = parseReply(text);
      if (typeof parsed === "string") {
        return { kind: "fail", reason: redact(`malformed response: ${parsed}`), retryable: false };
      }
      return { kind: "ok", reply: parsed };
    } finally {
      clearTimeout(timer);
    }
  }

  async function runEpisode(request: EpisodeRequest): Promise<EpisodeResult> {
    const { session } = request;
    const random = options.random ?? createRng(deriveSeed("openai-retry", request.seed)).next;
    const model =
      typeof options.model === "function" ? options.model(request.policy) : options.model;
    const toolsByName = new Map(session.tools.map((t) => [t.function.name, t]));
    const messages: ChatMessage[] = [];
    if (options.systemPrompt) messages.push({ role: "system", content: options.systemPrompt });
    messages.push({ role: "user", content: session.instruction });
    const steps: TrajectoryStep[] = [];
    const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
    let repairsLeft = repairAttempts;

    const request_ = (): ChatCompletionRequest => {
      const body: ChatCompletionRequest = {
        model,
        messages,
        temperature: options.temperature ?? request.temperature,
        seed: request.seed,
      };
      // Some servers refuse tool_choice without tools.
      if (session.tools.length > 0) {
        body.tools = session.tools;
        body.tool_choice = "auto";
      }
      if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
      if (options.requestLogprobs) {
        body.logprobs = true;
        if (options.topLogprobs) body.top_logprobs = options.topLogprobs;
      }
      if (options.sendTaskId) body.metadata = { task_id: request.task.id };
      return body;
    };

    const execute = async (call: ToolCall, probability: number | null, entropy: number | null) => {
      const index = steps.length;
      const result = await session.step(call);
      steps.push({
        index,
        tool: call.tool,
        arguments: call.arguments,
        observation: result.observation,
        probability,
        entropy,
        candidateCount: null,
        isError: result.isError,
      });
      return result;
    };

    const done = (endReason: EpisodeResult["endReason"]): EpisodeResult => ({
      steps,
      endReason,
      usage,
    });

    try {
      while (steps.length < session.maxSteps) {
        const reply = await post(request_(), random);
        usage.promptTokens += reply.usage.promptTokens;
        usage.completionTokens += reply.usage.completionTokens;
        const { probability, entropy } = scoreLogprobs(reply.logprobs, reply.rawToolCalls.length);

        if (reply.rawToolCalls.length === 0) {
          if (!toolsByName.has(answerTool)) return done("finish");
          const answer = reply.content?.trim() ?? "";
          const result = await execute(
            { tool: answerTool, arguments: answer ? { answer } : {} },
            probability,
            entropy,
          );
          return done(result.isDone && !result.isError ? "finish" : "max_steps");
        }

        messages.push({ role: "assistant", content: reply.content, tool_calls: reply.toolCalls });
        const calls = reply.toolCalls.map((raw) => readToolCall(raw, toolsByName));
        const malformed = calls.find((c) => typeof c === "string");
        if (typeof malformed === "string") {
          if (repairsLeft <= 0) throw new RolloutFailure(`malformed tool call: ${malformed}`);
          repairsLeft -= 1;
          // Nothing reached the environment: answer every call of the turn with the problem.
          for (const [i, raw] of reply.toolCalls.entries()) {
            const problem = calls[i];
            messages.push({
              role: "tool",
              tool_call_id: raw.id,
              content: encodeObservation({
                error:
                  typeof problem === "string" ? problem : "not run: another call was malformed",
              }),
            });
          }
          continue;
        }
        for (const [i, call] of (calls as ToolCall[]).entries()) {
          const result = await execute(call, probability, entropy);
          messages.push({
            role: "tool",
            tool_call_id: (reply.toolCalls[i] as ChatToolCall).id,
            content: encodeObservation(result.observation),
          });
          if (result.isDone) {
            const finished = call.tool === answerTool && !result.isError;
            return done(finished || steps.length < session.maxSteps ? "finish" : "max_steps");
          }
          if (steps.length >= session.maxSteps) break;
        }
      }
      return done("max_steps");
    } catch (error) {
      const reason =
        error instanceof RolloutFailure ? error.message : `agent failed: ${describeError(error)}`;
      return { steps, endReason: "agent_error", usage, error: redact(reason) };
    }
  }

  return { id: options.id ?? OPENAI_AGENT_ID, concurrency, runEpisode };
}

/** A tool call the environment can run, or what is wrong with it. */
function readToolCall(raw: ChatToolCall, tools: Map<string, OpenAiTool>): ToolCall | string {
  const name = raw.function.name;
  const tool = tools.get(name);
  if (!tool) return `unknown tool ${JSON.stringify(snippet(name, 80))}`;
  let args: unknown = raw.function.arguments;
  if (typeof args === "string") {
    const text = args.trim() === "" ? "{}" : args;
    try {
      args = JSON.parse(text);
    } catch {
      return `arguments of ${name} are not valid JSON: ${snippet(text, 120)}`;
    }
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return `arguments of ${name} must be a JSON object`;
  }
  const problems = validateJsonSchema(tool.function.parameters, args as Json);
  if (problems.length > 0) return `arguments of ${name} fail its schema: ${problems.join("; ")}`;
  return { tool: name, arguments: args as JsonObject };
}

/**
 * Probability of a tool call = exp(sum of the message's token log-probabilities) when the message
 * holds exactly one call (the tokens are that call); with several calls the split is unknown, so
 * null. Entropy: the sum over tokens of the entropy of the returned top alternatives — exact when
 * they cover the whole distribution (the builtin server), a lower bound otherwise.
 */
function scoreLogprobs(
  tokens: TokenLogprob[] | null,
  callCount: number,
): { probability: number | null; entropy: number | null } {
  if (!tokens || tokens.length === 0 || callCount > 1) return { probability: null, entropy: null };
  let sum = 0;
  let entropy: number | null = 0;
  for (const token of tokens) {
    sum += token.logprob;
    if (entropy === null || !token.top_logprobs || token.top_logprobs.length === 0) {
      entropy = null;
      continue;
    }
    for (const alt of token.top_logprobs)
      if (alt.logprob > -Infinity) entropy -= Math.exp(alt.logprob) * alt.logprob;
  }
  return { probability: Math.exp(sum), entropy };
}

function parseReply(text: string): ParsedReply | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${snippet(text, 120)}`;
  }
  if (!isObject(body)) return "body is not a JSON object";
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) return "no choices";
  const choice: unknown = choices[0];
  if (!isObject(choice) || !isObject(choice.message)) return "choices[0].message is missing";
  const message = choice.message;
  const content = typeof message.content === "string" ? message.content : null;
  const rawToolCalls: unknown[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls: ChatToolCall[] = [];
  for (const [i, raw] of rawToolCalls.entries()) {
    if (!isObject(raw) || !isObject(raw.function) || typeof raw.function.name !== "string") {
      return `tool_calls[${i}] has no function name`;
    }
    const args = raw.function.arguments;
    toolCalls.push({
      id: typeof raw.id === "string" && raw.id ? raw.id : `call_${i}`,
      type: "function",
      function: {
        name: raw.function.name,
        // Some servers (Ollama) send the arguments as an object rather than a JSON string.
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      },
    });
  }
  const usage = isObject(body.usage) ? body.usage : {};
  const logprobs =
    isObject(choice.logprobs) && Array.isArray(choice.logprobs.content)
      ? (choice.logprobs.content as unknown[]).filter(isTokenLogprob)
      : null;
  return {
    content,
    toolCalls,
    rawToolCalls,
    usage: {
      promptTokens: countOf(usage.prompt_tokens),
      completionTokens: countOf(usage.completion_tokens),
    },
    logprobs,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isTokenLogprob(value: unknown): value is TokenLogprob {
  return isObject(value) && typeof value.logprob === "number";
}

function countOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function errorMessageOf(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && isObject(body.error) && typeof body.error.message === "string") {
      return body.error.message;
    }
  } catch {
    // not JSON: show the raw text
  }
  return text;
}

/** Retry-After in seconds (dates are rare from model servers and ignored), capped at a minute. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || !/^\d+(\.\d+)?$/.test(header.trim())) return undefined;
  return Math.min(60_000, Math.round(Number(header) * 1000));
}

function snippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = isObject(cause) && typeof cause.code === "string" ? ` (${cause.code})` : "";
  return `${error.message}${code}`;
}

/** Scheme, host and path only: a base URL may carry credentials in its user info or query. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid base URL)";
  }
}

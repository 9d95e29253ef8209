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
import {
  ChatCallFailure,
  createChatClient,
  describeError,
  snippet,
} from "../../openai/chat-client";
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

const ANSWER_TOOL = "finish";

/** A failure that ends the rollout; `message` is already free of credentials. */
class RolloutFailure extends Error {}

/**
 * An agent behind any OpenAI-compatible chat-completions endpoint with tool calling (vLLM,
 * SGLang, Ollama, llama.cpp server, OpenAI, or this project's builtin-policy server). The
 * environment's tools go out as function schemas; each tool call is executed in order and its
 * observation returned as a tool message, until the model replies without tool calls (its
 * answer) or the episode runs out of steps. Endpoint failures end that rollout with
 * endReason "agent_error" and a reason; runEpisode itself never throws for them.
 */
export function createOpenAiAgent(options: OpenAiAgentOptions): Agent {
  const client = createChatClient({ ...options, owner: "the OpenAI agent" });
  const { concurrency, redact } = client;
  const answerTool = options.answerTool ?? ANSWER_TOOL;
  const repairAttempts = Math.max(0, Math.floor(options.repairAttempts ?? 0));
  const post = (body: ChatCompletionRequest, random: () => number) => client.complete(body, random);

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
        error instanceof RolloutFailure || error instanceof ChatCallFailure
          ? error.message
          : `agent failed: ${describeError(error)}`;
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

import type { Environment } from "../../interfaces";
import { createRng } from "../../rng";
import type { JsonObject, PolicyCheckpoint, Task } from "../../types";
import { decideStep } from "../builtin/agent";
import { decodeCheckpoint } from "../builtin/checkpoint";
import {
  SYNTHESIS_CONTEXT_KEY,
  TASK_SCHEMA_NAME,
  type SynthesisContext,
} from "../../synthesizers/llm-output";
import { hasBearer } from "../../bearer";
import { answerWithRules } from "../../synthesizers/rule-answer";
import type {
  ChatCompletionRequest,
  ChatCompletionResponse,
  ChatErrorBody,
  ChatToolCall,
  TokenLogprob,
} from "./wire";

type Awaitable<T> = T | Promise<T>;

export type TaskQuery = {
  /** The request's model: a server holding several runs scopes the lookup by it. */
  model: string;
  /** From the request's `metadata.task_id`, when the client sends it. */
  taskId: string | null;
  /** The first user message: what any OpenAI-compatible agent sends. */
  instruction: string;
};

export type PolicyChatServerOptions = {
  /** Must offer the in-process `local` episodes the builtin policy acts over (ToolWorld does). */
  environment: Environment;
  /** The checkpoint a `model` name serves, or null (→ 404 model_not_found). */
  resolvePolicy(model: string): Awaitable<PolicyCheckpoint | null>;
  /** For GET /v1/models. */
  listModels(): Awaitable<string[]>;
  /**
   * The task a conversation is about, or null (→ 404). An LLM sees only the instruction, so the
   * server must already know the task (its world, checker): see `createTaskDirectory`.
   */
  resolveTask(query: TaskQuery): Awaitable<Task | null>;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (like vLLM's --api-key). */
  apiKey?: string;
  /** Seconds for the `created` field; the engine never reads the clock itself. */
  now?: () => number;
};

/**
 * Tasks a policy server can answer about. A task id in `metadata.task_id` wins; otherwise the
 * instruction must match exactly one known task (two tasks may share an instruction and differ in
 * their world, so an ambiguous instruction is refused rather than guessed).
 */
export function createTaskDirectory() {
  const byId = new Map<string, Task>();
  const byInstruction = new Map<string, Task[]>();
  return {
    add(tasks: Iterable<Task>) {
      for (const task of tasks) {
        if (byId.has(task.id)) continue;
        byId.set(task.id, task);
        const same = byInstruction.get(task.instruction) ?? [];
        same.push(task);
        byInstruction.set(task.instruction, same);
      }
    },
    get size() {
      return byId.size;
    },
    resolve({ taskId, instruction }: TaskQuery): Task | null {
      if (taskId !== null) return byId.get(taskId) ?? null;
      const matches = byInstruction.get(instruction) ?? [];
      if (matches.length > 1) {
        throw new ChatRequestError(
          400,
          "ambiguous_task",
          `${matches.length} known tasks share this instruction; send metadata.task_id`,
        );
      }
      return matches[0] ?? null;
    },
  };
}

/** Thrown by a resolver (or the handler) to answer with an OpenAI-style error. */
export class ChatRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An OpenAI-compatible `/v1/chat/completions` + `/v1/models` handler (web-standard Request →
 * Response; mount it in node:http or a Next route) that serves the builtin policy, so the
 * OpenAI-compatible agent can be tested through real HTTP without a hosted model.
 *
 * Each request replays the conversation: it opens a fresh episode of the resolved task, re-runs
 * every earlier assistant tool call (the environment is deterministic, so the tool messages need
 * not be trusted), and advances a PRNG seeded with the request's `seed` by one draw per earlier
 * step — the draws the builtin agent made — before sampling the next action at the request's
 * `temperature`. The same seed and temperature therefore give exactly the builtin agent's episode.
 * With `logprobs: true` the reply carries one synthetic token per action whose logprob is the
 * policy's log-probability of it (temperature 1, as builtin trajectories record) and, with
 * `top_logprobs: k`, the k likeliest alternatives. Usage counts are approximate (≈4 characters a
 * prompt token, 1 completion token per action). Streaming is not supported (400).
 *
 * Requests asking for the `coevolve_task` JSON schema (the LLM synthesizer) are answered with the
 * builtin rule-based synthesizer's task for the slot instead: see `synthesisReply`.
 */
export function createPolicyChatHandler(
  options: PolicyChatServerOptions,
): (request: Request) => Promise<Response> {
  const local = options.environment.local;
  if (!local) {
    throw new Error(
      `environment ${options.environment.id} has no in-process episodes for the builtin policy`,
    );
  }
  const now = options.now ?? (() => 0);
  let served = 0;

  async function completions(body: ChatCompletionRequest): Promise<ChatCompletionResponse> {
    if (body.stream) throw new ChatRequestError(400, "unsupported", "streaming is not supported");
    if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
      throw new ChatRequestError(400, "invalid_request", "model and messages are required");
    }
    const userIndex = body.messages.findIndex((m) => m?.role === "user");
    const user = body.messages[userIndex];
    if (!user || typeof user.content !== "string") {
      throw new ChatRequestError(
        400,
        "invalid_request",
        "a user message with the instruction is required",
      );
    }
    if (
      body.response_format?.type === "json_schema" &&
      body.response_format.json_schema?.name === TASK_SCHEMA_NAME
    ) {
      return synthesisReply(body);
    }
    const policy = await options.resolvePolicy(body.model);
    if (!policy) throw new ChatRequestError(404, "model_not_found", `no model ${body.model}`);
    const taskId = typeof body.metadata?.task_id === "string" ? body.metadata.task_id : null;
    const task = await options.resolveTask({
      model: body.model,
      taskId,
      instruction: user.content,
    });
    if (!task)
      throw new ChatRequestError(404, "task_not_found", "no known task for this conversation");

    const weights = decodeCheckpoint(policy);
    const temperature = typeof body.temperature === "number" ? body.temperature : 1;
    const rng = createRng(typeof body.seed === "number" ? body.seed : 0);
    const episode = local!.openEpisode(task);

    for (const message of body.messages.slice(userIndex + 1)) {
      if (message.role !== "assistant" || !message.tool_calls) continue;
      for (const call of message.tool_calls) {
        if (episode.isDone)
          throw new ChatRequestError(400, "invalid_request", "the episode is already over");
        if (temperature > 0 && episode.view().candidates.length > 0) rng.next();
        episode.stepSync({ tool: call.function.name, arguments: parseArguments(call) });
      }
    }

    const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
    const decision = episode.isDone ? null : decideStep(episode, weights, temperature, rng);
    served += 1;
    const base = {
      id: `chatcmpl-${served}`,
      object: "chat.completion" as const,
      created: Math.floor(now()),
      model: body.model,
    };
    if (!decision) {
      return {
        ...base,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "" },
            finish_reason: "stop",
            logprobs: body.logprobs ? { content: [] } : null,
          },
        ],
        usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
      };
    }
    const { candidates, probs, choice } = decision;
    const chosen = candidates[choice]!;
    const toolCall: ChatToolCall = {
      id: `call_${episode.stepIndex}`,
      type: "function",
      function: { name: chosen.call.tool, arguments: JSON.stringify(chosen.call.arguments) },
    };
    let logprobs: { content: TokenLogprob[] } | null = null;
    if (body.logprobs) {
      const k = Math.max(0, Math.floor(body.top_logprobs ?? 0));
      const ranked = candidates
        .map((c, i) => ({ token: c.key, logprob: Math.log(probs[i] as number), bytes: null }))
        .sort((a, b) => b.logprob - a.logprob);
      logprobs = {
        content: [
          {
            token: chosen.key,
            logprob: Math.log(probs[choice] as number),
            bytes: null,
            top_logprobs: ranked.slice(0, k),
          },
        ],
      };
    }
    return {
      ...base,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [toolCall] },
          finish_reason: "tool_calls",
          logprobs,
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: 1, total_tokens: promptTokens + 1 },
    };
  }

  /**
   * A `coevolve_task` structured-output request (the LLM synthesizer). This server is no language
   * model and does not read the prompt: it answers with what the builtin rule-based synthesizer
   * makes for the slot described in `metadata.coevolve_synthesis` (the synthesizer's
   * `sendContext`), so a round with the LLM synthesizer over HTTP matches a builtin round.
   */
  async function synthesisReply(body: ChatCompletionRequest): Promise<ChatCompletionResponse> {
    const raw = body.metadata?.[SYNTHESIS_CONTEXT_KEY];
    if (typeof raw !== "string") {
      throw new ChatRequestError(
        400,
        "missing_context",
        `this server answers ${TASK_SCHEMA_NAME} requests only with metadata.${SYNTHESIS_CONTEXT_KEY} (the LLM synthesizer's sendContext)`,
      );
    }
    let context: SynthesisContext;
    try {
      context = JSON.parse(raw) as SynthesisContext;
    } catch {
      throw new ChatRequestError(
        400,
        "invalid_request",
        `metadata.${SYNTHESIS_CONTEXT_KEY} is not JSON`,
      );
    }
    if (context === null || typeof context !== "object" || !context.signal) {
      throw new ChatRequestError(
        400,
        "invalid_request",
        `metadata.${SYNTHESIS_CONTEXT_KEY} has no signal`,
      );
    }
    const output = await answerWithRules(options.environment, context);
    if (!output) {
      throw new ChatRequestError(
        422,
        "no_task",
        `the rule-based synthesizer makes no task for signal ${context.signal.id}`,
      );
    }
    const content = JSON.stringify(output);
    const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
    const completionTokens = Math.ceil(content.length / 4);
    served += 1;
    return {
      id: `chatcmpl-${served}`,
      object: "chat.completion",
      created: Math.floor(now()),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
  }

  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    try {
      if (options.apiKey && !hasBearer(request, options.apiKey)) {
        throw new ChatRequestError(401, "invalid_api_key", "missing or wrong API key");
      }
      if (path.endsWith("/models")) {
        if (request.method !== "GET")
          throw new ChatRequestError(405, "method_not_allowed", "use GET");
        const models = await options.listModels();
        return Response.json({
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "coevolve" })),
        });
      }
      if (path.endsWith("/chat/completions")) {
        if (request.method !== "POST")
          throw new ChatRequestError(405, "method_not_allowed", "use POST");
        let body: ChatCompletionRequest;
        try {
          body = (await request.json()) as ChatCompletionRequest;
        } catch {
          throw new ChatRequestError(400, "invalid_json", "the request body is not JSON");
        }
        if (body === null || typeof body !== "object") {
          throw new ChatRequestError(400, "invalid_request", "the request body must be an object");
        }
        return Response.json(await completions(body));
      }
      throw new ChatRequestError(404, "not_found", `no route ${path}`);
    } catch (error) {
      if (error instanceof ChatRequestError)
        return errorResponse(error.status, error.code, error.message);
      return errorResponse(
        500,
        "internal_error",
        error instanceof Error ? error.message : String(error),
      );
    }
  };
}

function parseArguments(call: ChatToolCall): JsonObject {
  try {
    const value: unknown = JSON.parse(call.function.arguments || "{}");
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      return value as JsonObject;
  } catch {
    // fall through
  }
  throw new ChatRequestError(
    400,
    "invalid_request",
    `arguments of an earlier ${call.function.name} call are not a JSON object`,
  );
}

function errorResponse(status: number, code: string, message: string): Response {
  const body: ChatErrorBody = {
    error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code },
  };
  return Response.json(body, { status });
}

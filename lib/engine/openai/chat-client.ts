import type { TokenUsage } from "../types";
import { createSemaphore, type Semaphore } from "../semaphore";
import type { ChatCompletionRequest, ChatToolCall, TokenLogprob } from "../agents/openai/wire";

/**
 * The HTTP side of talking to an OpenAI-compatible chat-completions endpoint, shared by the
 * OpenAI agent and the LLM synthesizer: concurrency gate, per-request timeout, retries with
 * jittered exponential backoff (honouring Retry-After), and error messages scrubbed of the key.
 */
export type ChatClientOptions = {
  /** Up to and including `/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never in a reason or an error message. */
  apiKey?: string;
  /** Requests in flight at once across every caller of this client. Default 4. */
  concurrency?: number;
  /** Per request, headers and body included. Default 60 s. */
  timeoutMs?: number;
  /** Extra attempts after a 429, a 5xx, a network error or a timeout. Default 3. */
  retries?: number;
  /** Exponential backoff: base·2^attempt, capped, times a jitter factor in [0.5, 1). */
  backoff?: { baseMs?: number; maxMs?: number };
  fetch?: typeof globalThis.fetch;
  /** Injected in tests; the default waits with setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Names the caller in the baseUrl errors, e.g. "the OpenAI agent". */
  owner?: string;
};

export type ParsedReply = {
  content: string | null;
  toolCalls: ChatToolCall[];
  rawToolCalls: unknown[];
  usage: TokenUsage;
  logprobs: TokenLogprob[] | null;
};

/** A request that failed for good; `message` is already free of credentials. */
export class ChatCallFailure extends Error {}

export type ChatClient = {
  readonly concurrency: number;
  /** Throws ChatCallFailure once retries are spent or the failure is not retryable. */
  complete(body: ChatCompletionRequest, random: () => number): Promise<ParsedReply>;
  /** Replaces the API key wherever it appears in `text`. */
  redact(text: string): string;
};

export const CHAT_CLIENT_DEFAULTS = {
  concurrency: 4,
  timeoutMs: 60_000,
  retries: 3,
  baseMs: 500,
  maxMs: 8_000,
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Attempt =
  | { kind: "ok"; reply: ParsedReply }
  | { kind: "fail"; reason: string; retryable: boolean; retryAfterMs?: number };

export function createChatClient(options: ChatClientOptions): ChatClient {
  const owner = options.owner ?? "the chat client";
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new Error(`${owner}'s baseUrl is not a URL`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`${owner}'s baseUrl must be http(s), not ${base.protocol}`);
  }
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const printableEndpoint = describeUrl(endpoint);
  const concurrency = Math.max(
    1,
    Math.floor(options.concurrency ?? CHAT_CLIENT_DEFAULTS.concurrency),
  );
  const gate: Semaphore = createSemaphore(concurrency);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? defaultSleep;
  const timeoutMs = options.timeoutMs ?? CHAT_CLIENT_DEFAULTS.timeoutMs;
  const retries = Math.max(0, Math.floor(options.retries ?? CHAT_CLIENT_DEFAULTS.retries));
  const baseMs = options.backoff?.baseMs ?? CHAT_CLIENT_DEFAULTS.baseMs;
  const maxMs = options.backoff?.maxMs ?? CHAT_CLIENT_DEFAULTS.maxMs;
  const redact = (text: string) =>
    options.apiKey ? text.split(options.apiKey).join("[redacted]") : text;

  async function complete(body: ChatCompletionRequest, random: () => number) {
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
      if (!outcome.retryable) throw new ChatCallFailure(outcome.reason);
    }
    const attempts = retries + 1;
    throw new ChatCallFailure(
      `${lastReason} (gave up after ${attempts} attempt${attempts === 1 ? "" : "s"})`,
    );
  }

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

  return { concurrency, complete, redact };
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

export function isObject(value: unknown): value is Record<string, unknown> {
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

export function snippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function describeError(error: unknown): string {
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

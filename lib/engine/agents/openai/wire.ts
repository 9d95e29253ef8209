/**
 * The slice of the OpenAI chat-completions wire format this project speaks, both as a client
 * (the OpenAI-compatible agent) and as a server (the builtin policy behind /v1/chat/completions).
 * Only what tool-calling rollouts need; unknown fields are ignored in both directions.
 */
import type { Json, OpenAiTool } from "../../types";

export type ChatToolCall = {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
};

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export type ChatCompletionRequest = {
  model: string;
  messages: ChatMessage[];
  tools?: OpenAiTool[];
  tool_choice?: "auto" | "none" | "required";
  temperature?: number;
  seed?: number;
  max_tokens?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  stream?: boolean;
  /** Structured output; the LLM synthesizer asks for its `coevolve_task` schema this way. */
  response_format?:
    | { type: "text" | "json_object" }
    | {
        type: "json_schema";
        json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean };
      };
  /** OpenAI's free-form request metadata; this project's server reads `task_id` from it. */
  metadata?: Record<string, string>;
};

export type TokenLogprob = {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: Array<{ token: string; logprob: number; bytes?: number[] | null }>;
};

export type ChatCompletionResponse = {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] };
    finish_reason: "stop" | "tool_calls" | "length";
    logprobs: { content: TokenLogprob[] | null } | null;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
};

export type ChatErrorBody = { error: { message: string; type: string; code?: string | null } };

/** How tool observations travel back to the model: the observation JSON, compact. */
export function encodeObservation(observation: Json): string {
  return JSON.stringify(observation);
}

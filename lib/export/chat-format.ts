import type { ExportTrajectoryRow } from "@/lib/db/queries/export";
import type { OpenAiTool } from "@/lib/engine/types";

/**
 * One trajectory as an OpenAI chat conversation with tool calls: the conversational "messages" +
 * "tools" columns TRL's dataset formats describe for tool calling
 * (https://huggingface.co/docs/trl/dataset_formats — a "tools" column of JSON-schema function
 * definitions beside "messages" with assistant `tool_calls` answered by `tool` messages), and the
 * chat-completions request shape verl and OpenRLHF read. Differences we chose on purpose:
 * `function.arguments` is a JSON string as the OpenAI API sends it (TRL's examples show an object;
 * `json.loads` turns ours into theirs), and every `tool` message carries both `tool_call_id` and
 * the tool's `name`, which some chat templates need. The environment's `finish` call is the
 * final assistant message with the answer as content, which is how a chat model ends a turn.
 */

export const SYSTEM_PROMPT =
  "You are an assistant that completes the user's task by calling the available tools. " +
  "Call one tool at a time and read its result before the next call. When the task is done, " +
  "reply with your answer (or an empty message if the task asked for no answer).";

export type ChatToolCall = {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
};

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; name: string; content: string };

export type ChatRecord = {
  messages: ChatMessage[];
  tools: OpenAiTool[];
  reward: number;
  advantage: number | null;
  metadata: {
    run: string;
    generation: number;
    taskKey: string;
    skill: string;
    level: number;
    origin: string;
    purpose: string;
    sampleIndex: number;
    policyVersion: number;
    success: boolean;
    sideEffect: boolean;
    stepCount: number;
    endReason: string | null;
    failure: string | null;
    error: string | null;
  };
};

const FINISH_TOOL = "finish";

/** What a conversation is made of: an exported row and an engine trajectory + task both fit. */
export type ConversationSource = Pick<ExportTrajectoryRow, "instruction" | "steps" | "answer">;

export function toChatMessages(row: ConversationSource): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: row.instruction },
  ];
  for (const step of row.steps) {
    if (step.tool === FINISH_TOOL && !step.isError) {
      const answer = step.arguments.answer;
      messages.push({
        role: "assistant",
        content: typeof answer === "string" ? answer : (row.answer ?? ""),
      });
      break;
    }
    const id = `call_${step.index}`;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id,
          type: "function",
          function: { name: step.tool, arguments: JSON.stringify(step.arguments) },
        },
      ],
    });
    messages.push({
      role: "tool",
      tool_call_id: id,
      name: step.tool,
      content: JSON.stringify(step.observation),
    });
  }
  return messages;
}

export function toChatRecord(
  row: ExportTrajectoryRow,
  context: { run: string; tools: OpenAiTool[] },
): ChatRecord {
  return {
    messages: toChatMessages(row),
    tools: context.tools,
    reward: row.reward,
    advantage: row.advantage,
    metadata: {
      run: context.run,
      generation: row.generation,
      taskKey: row.taskKey,
      skill: row.skill,
      level: row.level,
      origin: row.origin.toLowerCase(),
      purpose: row.purpose.toLowerCase(),
      sampleIndex: row.sampleIndex,
      policyVersion: row.policyVersion,
      success: row.success,
      sideEffect: row.sideEffect,
      stepCount: row.stepCount,
      endReason: row.endReason,
      failure: row.failure,
      error: row.error,
    },
  };
}

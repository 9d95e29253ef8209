import { z } from "zod";
import type { EnvironmentCatalog } from "../environment-types";
import type { PortableTask } from "../interfaces";
import { validateJsonSchema } from "../json-schema";
import type { Json, JsonObject, Signal, Task, TaskRelation, ToolCall } from "../types";

/** The structured-output schema name; this project's chat server answers requests that ask for it. */
export const TASK_SCHEMA_NAME = "coevolve_task";

/**
 * `metadata` key with the slot's context as JSON (signal, source task, slot index, seeds). Only
 * this project's builtin chat server reads it — it is no language model and cannot read the
 * prompt — so the synthesizer sends it only with `sendContext` (hosted endpoints may reject long
 * metadata values).
 */
export const SYNTHESIS_CONTEXT_KEY = "coevolve_synthesis";

export type SynthesisContext = {
  signal: Signal;
  sourceTask: Task | null;
  /** How many earlier slots of this round went to the same signal. */
  use: number;
  runSeed: number;
  generation: number;
  harderAbove: number;
};

export const RELATIONS: readonly TaskRelation[] = ["variant", "harder", "easier", "explore"];

/**
 * What the model writes. Strict structured output allows no free-form objects, so the world spec
 * and each call's arguments travel as JSON strings and are parsed here.
 */
export type LlmTaskOutput = {
  instruction: string;
  skill: string;
  level: number;
  relation: TaskRelation;
  spec_json: string;
  reference: Array<{ tool: string; arguments_json: string }>;
  expected: { answer: string | null; effects: string[] };
};

/** The JSON schema sent as `response_format.json_schema.schema` (OpenAI strict mode rules). */
export function taskOutputSchema(catalog: EnvironmentCatalog): Record<string, unknown> {
  const levels = [...new Set(catalog.skills.flatMap((s) => s.levels))].sort((a, b) => a - b);
  return {
    type: "object",
    additionalProperties: false,
    required: ["instruction", "skill", "level", "relation", "spec_json", "reference", "expected"],
    properties: {
      instruction: { type: "string" },
      skill: { type: "string", enum: catalog.skills.map((s) => s.id) },
      level: { type: "integer", enum: levels },
      relation: { type: "string", enum: [...RELATIONS] },
      spec_json: { type: "string" },
      reference: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["tool", "arguments_json"],
          properties: {
            tool: { type: "string", enum: catalog.tools.map((t) => t.function.name) },
            arguments_json: { type: "string" },
          },
        },
      },
      expected: {
        type: "object",
        additionalProperties: false,
        required: ["answer", "effects"],
        properties: {
          answer: { type: ["string", "null"] },
          effects: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
}

// Servers do not all enforce the schema, so everything is checked again here.
const outputSchema = z.strictObject({
  instruction: z.string().trim().min(1),
  skill: z.string().min(1),
  level: z.number().int(),
  relation: z.enum(RELATIONS as [TaskRelation, ...TaskRelation[]]),
  spec_json: z.string().min(2),
  reference: z
    .array(z.strictObject({ tool: z.string().min(1), arguments_json: z.string() }))
    .min(1, "needs at least one call"),
  expected: z.strictObject({ answer: z.string().nullable(), effects: z.array(z.string()) }),
});

export type ParsedOutput = { portable: PortableTask; relation: TaskRelation };

/** The model's reply as a portable task, or the reason it cannot be one. */
export function readTaskOutput(
  content: string | null,
  catalog: EnvironmentCatalog,
): ParsedOutput | string {
  if (content === null || content.trim() === "") return "the reply has no content";
  let raw: unknown;
  try {
    raw = JSON.parse(stripFence(content));
  } catch {
    return `the reply is not JSON: ${clip(content)}`;
  }
  const parsed = outputSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`,
    );
    return `the reply does not match the ${TASK_SCHEMA_NAME} schema: ${problems.join("; ")}`;
  }
  const out = parsed.data;
  const skill = catalog.skills.find((s) => s.id === out.skill);
  if (!skill) {
    return `unknown skill '${out.skill}' (known: ${catalog.skills.map((s) => s.id).join(", ")})`;
  }
  if (!skill.levels.includes(out.level)) {
    return `level ${out.level} is not a level of ${skill.id} (${skill.levels.join(", ")})`;
  }
  const tools = new Map(catalog.tools.map((t) => [t.function.name, t]));
  const reference: ToolCall[] = [];
  for (const [i, call] of out.reference.entries()) {
    const step = `reference step ${i + 1}`;
    const tool = tools.get(call.tool);
    if (!tool) return `${step} calls unknown tool '${clip(call.tool, 60)}'`;
    const args = parseObject(call.arguments_json);
    if (!args) return `${step} (${call.tool}): arguments_json is not a JSON object`;
    const problems = validateJsonSchema(tool.function.parameters, args);
    if (problems.length > 0) return `${step} (${call.tool}): ${problems.join("; ")}`;
    reference.push({ tool: call.tool, arguments: args });
  }
  const spec = parseObject(out.spec_json);
  if (!spec) return "spec_json is not a JSON object";
  return {
    relation: out.relation,
    portable: {
      instruction: out.instruction.trim(),
      skill: out.skill,
      level: out.level,
      spec,
      reference,
      expect: { answer: out.expected.answer, effects: out.expected.effects },
    },
  };
}

/** A task written the way the model is asked to write it (the builtin chat server's answer). */
export function taskToOutput(
  task: Task,
  reference: ToolCall[],
  relation: TaskRelation,
): LlmTaskOutput {
  const expect = (task.spec as { expect?: unknown }).expect as JsonObject | undefined;
  return {
    instruction: task.instruction,
    skill: task.skill,
    level: task.level,
    relation,
    spec_json: JSON.stringify(task.spec),
    reference: reference.map((c) => ({
      tool: c.tool,
      arguments_json: JSON.stringify(c.arguments),
    })),
    expected: {
      answer: typeof expect?.answer === "string" ? expect.answer : null,
      effects: Array.isArray(expect?.effects) ? expect.effects.map(String) : [],
    },
  };
}

function parseObject(text: string): JsonObject | null {
  try {
    const value = JSON.parse(text) as Json;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Models without structured output often wrap JSON in a ```json fence. */
function stripFence(text: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return match ? match[1]! : text;
}

function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

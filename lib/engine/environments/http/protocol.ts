/**
 * The `coevolve-env/1` protocol: what an environment server answers, as zod schemas. Both ends
 * validate with these; docs/http-environment-protocol.md is the prose version. Everything is
 * plain JSON so a wrapper around AppWorld, BFCL or any other benchmark can be written in any
 * language.
 */
import { z } from "zod";
import type {
  CandidateView,
  EnvironmentCatalog,
  EpisodeOutcome,
  EpisodeStepResult,
  TaskRequest,
} from "../../environment-types";
import type { Json, JsonObject, OpenAiTool, Task, ToolCall } from "../../types";

export const PROTOCOL_VERSION = "coevolve-env/1";

const json: z.ZodType<Json> = z.json();
const jsonObject: z.ZodType<JsonObject> = z.record(z.string(), json);

export const toolCallSchema = z.object({ tool: z.string().min(1), arguments: jsonObject });

const openAiToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({ name: z.string().min(1), description: z.string(), parameters: jsonObject }),
});

const signalKind = z.enum(["forgetting", "boundary", "rare"]);
const relation = z.enum(["variant", "harder", "easier", "explore"]);
const split = z.enum(["train", "heldout", "dev"]);
const origin = z.enum(["seed", "synthesized", "imported"]);

export const taskSchema = z.object({
  id: z.string().min(1),
  fingerprint: z.string().min(1),
  environment: z.string(),
  skill: z.string(),
  level: z.number().int(),
  estimatedDifficulty: z.number(),
  measuredDifficulty: z.number().nullable(),
  measuredByPolicyVersion: z.number().int().nullable(),
  origin,
  signal: signalKind.nullable(),
  signalId: z.string().nullable(),
  parentTaskId: z.string().nullable(),
  relation: relation.nullable(),
  triggerTrajectoryId: z.string().nullable(),
  bornGeneration: z.number().int(),
  instruction: z.string(),
  spec: jsonObject,
  split,
  validation: z.object({
    status: z.enum(["pending", "valid", "invalid"]),
    reason: z.string().nullable(),
  }),
  review: z.object({
    status: z.enum(["pending", "approved", "rejected"]),
    by: z.string().nullable(),
    note: z.string().nullable(),
  }),
});

export const taskRequestSchema = z.object({
  skill: z.string().min(1),
  level: z.number().int(),
  seed: z.number().int(),
  split,
  origin,
  generation: z.number().int().min(0),
  signal: signalKind.nullable().optional(),
  signalId: z.string().nullable().optional(),
  parentTaskId: z.string().nullable().optional(),
  relation: relation.nullable().optional(),
  triggerTrajectoryId: z.string().nullable().optional(),
});

const skillInfoSchema = z.object({
  id: z.string(),
  description: z.string(),
  levels: z.array(z.number().int()),
  toolsByLevel: z.record(z.string(), z.array(z.string())),
  transitionsByLevel: z.record(z.string(), z.array(z.string())),
  composes: z.array(z.string()),
});

const catalogSchema = z.object({
  id: z.string(),
  skills: z.array(skillInfoSchema),
  tools: z.array(openAiToolSchema),
});

// ---- requests ---------------------------------------------------------------------------------

/** POST /tasks/reference-solution and POST /episodes. */
export const taskBodySchema = z.object({ task: taskSchema });
/** POST /validate. */
export const validateBodySchema = z.object({
  candidates: z.array(taskSchema),
  knownFingerprints: z.array(z.string()).default([]),
});
/** POST /tasks/from-portable: a task as import and the LLM synthesizer write it. */
export const portableTaskBodySchema = z.object({
  task: z.object({
    instruction: z.string(),
    skill: z.string(),
    level: z.number().int(),
    spec: jsonObject,
    reference: z.array(toolCallSchema).optional(),
    expect: z.object({ answer: z.string().nullable(), effects: z.array(z.string()) }).optional(),
  }),
  context: z.object({ origin, generation: z.number().int().min(0), split }),
});
/** POST /episodes/:id/step is a bare ToolCall. */
export const stepBodySchema = toolCallSchema;

// ---- responses --------------------------------------------------------------------------------

export const describeResponseSchema = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  id: z.string().min(1),
  catalog: catalogSchema,
  tools: z.array(openAiToolSchema),
  /** `portable`: POST /tasks/from-portable is answered (absent = no, for older servers). */
  capabilities: z.object({ validate: z.boolean(), portable: z.boolean().optional() }),
  limits: z.object({ maxSessions: z.number().int(), idleTimeoutMs: z.number().int() }),
});
export const taskResponseSchema = z.object({ task: taskSchema });
export const portableTaskResponseSchema = z.union([
  z.object({ ok: z.literal(true), task: taskSchema }),
  z.object({
    ok: z.literal(false),
    issues: z.array(z.object({ path: z.string(), message: z.string() })),
  }),
]);
export const referenceSolutionResponseSchema = z.object({ calls: z.array(toolCallSchema) });
export const validateResponseSchema = z.object({
  tasks: z.array(taskSchema),
  envSteps: z.number().int().min(0),
});
export const openEpisodeResponseSchema = z.object({
  episodeId: z.string().min(1),
  instruction: z.string(),
  /** Omitted when the episode offers exactly the tools of GET /describe. */
  tools: z.array(openAiToolSchema).optional(),
  maxSteps: z.number().int().min(0),
  /** Which optional per-episode endpoints this episode answers. */
  capabilities: z.object({ candidates: z.boolean(), view: z.boolean() }),
});
export const stepResponseSchema = z.object({
  observation: json,
  isError: z.boolean(),
  isDone: z.boolean(),
});
export const candidatesResponseSchema = z.object({ candidates: z.array(toolCallSchema) });
export const viewResponseSchema = z.object({
  words: z.array(z.string()),
  flags: z.array(z.string()),
  previousTool: z.string().nullable(),
  candidates: z.array(
    z.object({ call: toolCallSchema, key: z.string(), facts: z.array(z.string()) }),
  ),
});
export const scoreResponseSchema = z.object({
  success: z.boolean(),
  reward: z.number(),
  sideEffect: z.boolean(),
  answer: z.string().nullable(),
  failure: z.string().nullable(),
});
export const closeResponseSchema = z.object({ closed: z.literal(true) });

export const ERROR_CODES = [
  "bad_json",
  "unauthorized",
  "invalid_request",
  "environment_rejected",
  "not_found",
  "method_not_allowed",
  "too_many_sessions",
  "unsupported",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
export const errorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorResponse = { error: { code: ErrorCode; message: string } };

export type DescribeResponse = {
  protocol: typeof PROTOCOL_VERSION;
  id: string;
  catalog: EnvironmentCatalog;
  tools: OpenAiTool[];
  capabilities: { validate: boolean; portable?: boolean };
  limits: { maxSessions: number; idleTimeoutMs: number };
};
export type TaskResponse = { task: Task };
export type ReferenceSolutionResponse = { calls: ToolCall[] };
export type ValidateBody = { candidates: Task[]; knownFingerprints?: string[] };
export type ValidateResponse = { tasks: Task[]; envSteps: number };
export type OpenEpisodeResponse = {
  episodeId: string;
  instruction: string;
  tools?: OpenAiTool[];
  maxSteps: number;
  capabilities: { candidates: boolean; view: boolean };
};
export type StepResponse = EpisodeStepResult;
export type CandidatesResponse = { candidates: ToolCall[] };
export type ViewResponse = CandidateView;
export type ScoreResponse = EpisodeOutcome;
export type { TaskRequest };

/** "task.spec.maxSteps: expected number" — the first problems, each naming its field. */
export function describeIssues(error: z.ZodError, root = "body"): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return `${path === "" ? root : path}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * Checks `value` against `schema` but hands back the value itself, not zod's rebuilt copy: zod
 * orders keys by schema, and tasks must cross the wire byte-for-byte as the environment wrote them.
 */
export function checkShape<T>(
  schema: z.ZodType,
  value: unknown,
): { ok: true; value: T } | { ok: false; message: string } {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error) };
  return { ok: true, value: value as T };
}

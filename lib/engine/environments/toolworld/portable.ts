import { z } from "zod";
import type { PortableTask, PortableTaskContext, PortableTaskResult } from "../../interfaces";
import { LEVELS, SKILL_IDS } from "./skills";
import { taskFromSpec, TOOLWORLD_ID, type ToolWorldSpec } from "./spec";

const idRecord = z.looseObject({ id: z.string().min(1) });
const toolCall = z.object({
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.json()),
});

// Checks the shape only: whether the reference solves the task is the execution validator's
// call, so an imported task is judged exactly like a synthesized one.
const specSchema = z.object({
  kind: z.literal("toolworld/v1"),
  skill: z.string(),
  level: z.number().int(),
  worldSeed: z.number().int(),
  patch: z.object({
    contacts: z.array(idRecord).optional(),
    files: z.array(idRecord).optional(),
    events: z.array(idRecord).optional(),
    transactions: z.array(idRecord).optional(),
  }),
  reference: z.array(toolCall).min(1),
  expect: z.object({ answer: z.string().nullable(), effects: z.array(z.string()) }),
  maxSteps: z.number().int().min(1).max(100),
  structure: z.object({
    calls: z.number().int().min(0),
    entities: z.number().int().min(0),
    distractors: z.number().int().min(0),
    isChained: z.boolean(),
  }),
});

/** ToolWorld's side of import: the spec must be a v1 spec of the skill and level the line names. */
export function toolWorldTaskFromPortable(
  input: PortableTask,
  context: PortableTaskContext,
): PortableTaskResult {
  const issues: { path: string; message: string }[] = [];
  if (!SKILL_IDS.includes(input.skill)) {
    issues.push({
      path: "skill",
      message: `unknown skill '${input.skill}' (known: ${SKILL_IDS.join(", ")})`,
    });
  }
  if (!LEVELS.includes(input.level)) {
    issues.push({
      path: "level",
      message: `level must be one of ${LEVELS.join(", ")}, got ${input.level}`,
    });
  }
  const parsed = specSchema.safeParse(input.spec);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      issues.push({ path: ["spec", ...issue.path.map(String)].join("."), message: issue.message });
    }
    return { ok: false, issues };
  }
  const spec = parsed.data as unknown as ToolWorldSpec;
  const hasIssue = (path: string) => issues.some((issue) => issue.path === path);
  if (!hasIssue("skill") && spec.skill !== input.skill) {
    issues.push({
      path: "skill",
      message: `'${input.skill}' differs from spec.skill '${spec.skill}'`,
    });
  }
  if (!hasIssue("level") && spec.level !== input.level) {
    issues.push({ path: "level", message: `${input.level} differs from spec.level ${spec.level}` });
  }
  if (issues.length > 0) return { ok: false, issues };
  const withReference: ToolWorldSpec = {
    ...spec,
    ...(input.reference ? { reference: input.reference } : {}),
    ...(input.expect
      ? { expect: { answer: input.expect.answer, effects: input.expect.effects } }
      : {}),
  };
  const task = taskFromSpec(input.instruction, withReference, {
    skill: spec.skill,
    level: spec.level,
    seed: 0,
    ...context,
  });
  return { ok: true, task: { ...task, environment: TOOLWORLD_ID } };
}

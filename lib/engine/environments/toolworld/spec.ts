import { createDerivedRng, deriveSeed, hashHex } from "../../rng";
import type { JsonObject, Task, ToolCall } from "../../types";
import type { TaskRequest } from "../../environment-types";
import { annotateInstruction, type Annotation } from "./annotate";
import { getSkill } from "./skills";
import { WorldBuilder } from "./skills/builder";
import { indexWorld, normalizeText, type IndexedWorld } from "./state";
import { applyPatch, generateWorld, type WorldPatch } from "./world";

export const TOOLWORLD_ID = "toolworld";

/** Everything needed to rebuild a task's world, reference solution and checker. */
export type ToolWorldSpec = {
  kind: "toolworld/v1";
  skill: string;
  level: number;
  worldSeed: number;
  patch: WorldPatch;
  reference: ToolCall[];
  /** The checker: the exact multiset of net world changes, and the answer if one is asked. */
  expect: { answer: string | null; effects: string[] };
  maxSteps: number;
  structure: { calls: number; entities: number; distractors: number; isChained: boolean };
};

export type CompiledTask = {
  spec: ToolWorldSpec;
  instruction: string;
  indexed: IndexedWorld;
  annotation: Annotation;
  expectedEffects: string[];
};

export function estimateDifficulty(structure: ToolWorldSpec["structure"]): number {
  const raw =
    0.1 +
    0.1 * (structure.calls - 3) +
    0.05 * structure.entities +
    0.04 * structure.distractors +
    (structure.isChained ? 0.15 : 0);
  return Math.round(Math.min(1, Math.max(0, raw)) * 1000) / 1000;
}

/**
 * Object keys sorted at every depth. A spec that went through Postgres jsonb comes back with its
 * keys reordered, and the fingerprint must not change on the way (export → import keeps it).
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Normalized content hash: same instruction in the same world with the same checker = same task. */
export function fingerprintTask(instruction: string, spec: ToolWorldSpec): string {
  return hashHex(
    JSON.stringify([
      spec.skill,
      spec.level,
      normalizeText(instruction).replace(/[^\p{L}\p{N}@$'\- ]/gu, ""),
      spec.worldSeed,
      sortKeys(spec.patch),
      spec.expect.answer === null ? null : normalizeText(spec.expect.answer),
      [...spec.expect.effects].sort(),
    ]),
  );
}

export function buildToolWorldTask(request: TaskRequest): Task {
  const skill = getSkill(request.skill);
  if (!Number.isInteger(request.level) || request.level < 1 || request.level > 5) {
    throw new Error(`level must be 1–5, got ${request.level}`);
  }
  const rng = createDerivedRng("toolworld-task", request.skill, request.level, request.seed);
  const worldSeed = deriveSeed("toolworld-world", request.seed, request.skill, request.level);
  const builder = new WorldBuilder(generateWorld(worldSeed), rng);
  const out = skill.generate(request.level, rng, builder);
  const structure = {
    calls: out.reference.length,
    entities: out.entities,
    distractors: out.distractors,
    isChained: out.isChained,
  };
  const spec: ToolWorldSpec = {
    kind: "toolworld/v1",
    skill: skill.id,
    level: request.level,
    worldSeed,
    patch: builder.patch(),
    reference: out.reference,
    expect: { answer: out.expect.answer, effects: [...out.expect.effects].sort() },
    maxSteps: out.reference.length + 3,
    structure,
  };
  return taskFromSpec(out.instruction, spec, request);
}

export function taskFromSpec(instruction: string, spec: ToolWorldSpec, request: TaskRequest): Task {
  const fingerprint = fingerprintTask(instruction, spec);
  return {
    id: `tw-${fingerprint}`,
    fingerprint,
    environment: TOOLWORLD_ID,
    skill: spec.skill,
    level: spec.level,
    estimatedDifficulty: estimateDifficulty(spec.structure),
    measuredDifficulty: null,
    measuredByPolicyVersion: null,
    origin: request.origin,
    signal: request.signal ?? null,
    signalId: request.signalId ?? null,
    parentTaskId: request.parentTaskId ?? null,
    relation: request.relation ?? null,
    triggerTrajectoryId: request.triggerTrajectoryId ?? null,
    bornGeneration: request.generation,
    instruction,
    spec: spec as unknown as JsonObject,
    split: request.split,
    validation: { status: "pending", reason: null },
    review: { status: "pending", by: null, note: null },
  };
}

export function readSpec(task: Pick<Task, "spec" | "id">): ToolWorldSpec {
  const spec = task.spec as unknown as ToolWorldSpec;
  if (spec?.kind !== "toolworld/v1") throw new Error(`task ${task.id} is not a ToolWorld task`);
  return spec;
}

const COMPILE_CACHE_LIMIT = 4096;
const compiledBySpec = new WeakMap<object, CompiledTask>();
const compiledByContent = new Map<string, CompiledTask>();

/**
 * Rebuilds world, index and annotation from the spec. Memoized on the spec's content, purely as a
 * speed-up: results never depend on what is cached.
 */
export function compileTask(task: Pick<Task, "spec" | "id" | "instruction">): CompiledTask {
  const bySpec = compiledBySpec.get(task.spec);
  if (bySpec && bySpec.instruction === task.instruction) return bySpec;
  const key = `${task.instruction}|${JSON.stringify(task.spec)}`;
  const cached = compiledByContent.get(key);
  if (cached) {
    compiledBySpec.set(task.spec, cached);
    return cached;
  }
  const spec = readSpec(task);
  const world = applyPatch(generateWorld(spec.worldSeed), spec.patch);
  const names = new Set(world.contacts.map((c) => c.name));
  const compiled: CompiledTask = {
    spec,
    instruction: task.instruction,
    indexed: indexWorld(world),
    annotation: annotateInstruction(task.instruction, names),
    expectedEffects: [...spec.expect.effects].sort(),
  };
  if (compiledByContent.size >= COMPILE_CACHE_LIMIT) compiledByContent.clear();
  compiledByContent.set(key, compiled);
  compiledBySpec.set(task.spec, compiled);
  return compiled;
}

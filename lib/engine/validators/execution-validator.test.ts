import { describe, expect, it } from "vitest";
import { createToolWorld } from "../environments/toolworld";
import type { ToolWorldSpec } from "../environments/toolworld/spec";
import type { Task } from "../types";
import { createExecutionValidator } from "./execution-validator";

const environment = createToolWorld();
const validator = createExecutionValidator();

function generate(skill: string, level: number, seed: number): Task {
  return environment.local!.generateTask({
    skill,
    level,
    seed,
    split: "train",
    origin: "synthesized",
    generation: 1,
  });
}

/** A tampered copy, as a buggy generator (or LLM synthesizer) could produce it. */
function tamper(task: Task, change: (spec: ToolWorldSpec) => ToolWorldSpec, tag: string): Task {
  const spec = change(structuredClone(task.spec) as unknown as ToolWorldSpec);
  return {
    ...task,
    id: `${task.id}-${tag}`,
    fingerprint: `${task.fingerprint}-${tag}`,
    spec: spec as never,
  };
}

async function validateOne(task: Task, known: string[] = []) {
  const { tasks } = await validator.validate({
    candidates: [task],
    environment,
    knownFingerprints: known,
  });
  return tasks[0]!;
}

describe("execution validator", () => {
  it("accepts a well-formed task", async () => {
    const task = await validateOne(generate("organize", 3, 11));
    expect(task.validation).toEqual({ status: "valid", reason: null });
  });

  it("rejects a task whose reference solution fails its checker", async () => {
    const bad = tamper(
      generate("message", 1, 5),
      (spec) => ({
        ...spec,
        expect: { ...spec.expect, effects: [...spec.expect.effects, "pay:c1:10"] },
      }),
      "ref-fails",
    );
    const task = await validateOne(bad);
    expect(task.validation.status).toBe("invalid");
    expect(task.validation.reason).toMatch(
      /^reference solution fails its checker: missing: pay:c1:10/,
    );
  });

  it("rejects a reference that needs an action the agent cannot take", async () => {
    const original = generate("lookup", 1, 7);
    const bad = tamper(
      original,
      (spec) => ({ ...spec, reference: spec.reference.slice(1) }),
      "unreachable",
    );
    const task = await validateOne(bad);
    expect(task.validation.status).toBe("invalid");
    expect(task.validation.reason).toMatch(
      /^reference step 1 get_contact\(.*\) is not an action the agent can take$/,
    );
  });

  it("rejects a task that an immediate answer passes", async () => {
    const bad = tamper(
      generate("message", 2, 9),
      (spec) => ({
        ...spec,
        reference: [{ tool: "finish", arguments: {} }],
        expect: { answer: null, effects: [] },
      }),
      "trivial",
    );
    const task = await validateOne(bad);
    expect(task.validation.status).toBe("invalid");
    expect(task.validation.reason).toBe("an immediate answer passes: finish({})");
  });

  it("rejects duplicates of earlier tasks and within the same batch, keeping the reason", async () => {
    const task = generate("pay", 4, 3);
    const againstEarlier = await validateOne(task, [task.fingerprint]);
    expect(againstEarlier.validation).toEqual({
      status: "invalid",
      reason: "duplicate of an earlier task",
    });
    const { tasks } = await validator.validate({
      candidates: [task, { ...task }],
      environment,
      knownFingerprints: [],
    });
    expect(tasks[0]!.validation.status).toBe("valid");
    expect(tasks[1]!.validation).toEqual({
      status: "invalid",
      reason: `duplicate of task ${task.id}`,
    });
  });
});

import type { Environment } from "../interfaces";
import { deriveSeed } from "../rng";
import { taskToOutput, type LlmTaskOutput, type SynthesisContext } from "./llm-output";
import { planIntents } from "./rule-based";

/**
 * What the builtin rule-based synthesizer makes for one slot, written as a `coevolve_task` reply:
 * the same intent (relation, skill, level) and the same seed, so the task rebuilt from this answer
 * is the task the builtin synthesizer would have generated. Null when the rules make nothing for
 * the signal (the builtin synthesizer would skip it). The per-cell cap is not applied here — one
 * request sees one slot — the LLM synthesizer applies it to the whole round instead.
 */
export async function answerWithRules(
  environment: Environment,
  context: SynthesisContext,
): Promise<LlmTaskOutput | null> {
  const { signal, sourceTask, use } = context;
  const tasksById = sourceTask ? { [sourceTask.id]: sourceTask } : {};
  const intents = planIntents(signal, tasksById, environment.describe(), use, context.harderAbove);
  if (intents.length === 0) return null;
  const intent = intents[use % intents.length]!;
  const task = await environment.generateTask({
    skill: intent.skill,
    level: intent.level,
    seed: deriveSeed("synth", context.runSeed, context.generation, signal.id, use),
    split: "train",
    origin: "synthesized",
    generation: context.generation,
    signal: signal.kind,
    signalId: signal.id,
    parentTaskId: intent.parent?.id ?? null,
    relation: intent.relation,
    triggerTrajectoryId: signal.trajectoryId,
  });
  return taskToOutput(task, await environment.referenceSolution(task), intent.relation);
}

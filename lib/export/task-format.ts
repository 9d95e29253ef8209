import type { ExportTaskRow } from "@/lib/db/queries/export";
import type { Environment } from "@/lib/engine/interfaces";
import type { Task } from "@/lib/engine/types";
import type { PortableTaskLine } from "@/lib/import/format";

/** A stored task in the portable format `npm run import` reads (lib/import/format.ts). */
export async function toPortableTask(
  row: ExportTaskRow,
  context: { run: string; environment: Environment },
): Promise<PortableTaskLine> {
  // Whole, because a remote environment's server checks the task it is sent.
  const task: Task = {
    id: row.key,
    fingerprint: row.fingerprint,
    environment: context.environment.id,
    skill: row.skill,
    level: row.level,
    estimatedDifficulty: row.estimatedDifficulty,
    measuredDifficulty: null,
    measuredByPolicyVersion: null,
    origin: row.origin.toLowerCase() as Task["origin"],
    signal: null,
    signalId: null,
    parentTaskId: null,
    relation: null,
    triggerTrajectoryId: null,
    bornGeneration: row.generation,
    instruction: row.instruction,
    spec: row.spec,
    split: "train",
    validation: {
      status: row.validationStatus.toLowerCase() as Task["validation"]["status"],
      reason: null,
    },
    review: {
      status: row.reviewStatus.toLowerCase() as Task["review"]["status"],
      by: null,
      note: null,
    },
  };
  const reference = await context.environment.referenceSolution(task);
  return {
    instruction: row.instruction,
    skill: row.skill,
    level: row.level,
    difficulty: row.estimatedDifficulty,
    spec: row.spec,
    reference,
    metadata: {
      run: context.run,
      generation: row.generation,
      taskKey: row.key,
      origin: row.origin.toLowerCase(),
      reviewStatus: row.reviewStatus.toLowerCase(),
    },
  };
}

import type { ExportTaskRow } from "@/lib/db/queries/export";
import type { Environment } from "@/lib/engine/interfaces";
import type { Task } from "@/lib/engine/types";
import type { PortableTaskLine } from "@/lib/import/format";

/** A stored task in the portable format `npm run import` reads (lib/import/format.ts). */
export async function toPortableTask(
  row: ExportTaskRow,
  context: { run: string; environment: Environment },
): Promise<PortableTaskLine> {
  const task = { id: row.key, spec: row.spec, instruction: row.instruction } as Task;
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

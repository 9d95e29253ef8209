import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Td, Th } from "@/components/ui/table";
import type { GenerationTaskRow } from "@/lib/db/queries/generation-tasks";

/**
 * The columns of a generation's task table, shared by the read-only table (server) and the review
 * table (client island): one definition of what a task row shows.
 */

export const reviewTone: Record<GenerationTaskRow["reviewStatus"], BadgeTone> = {
  PENDING: "neutral",
  APPROVED: "good",
  REJECTED: "bad",
};

export const validationTone: Record<GenerationTaskRow["validationStatus"], BadgeTone> = {
  PENDING: "neutral",
  VALID: "good",
  INVALID: "bad",
};

export const signalLabel = (kind: GenerationTaskRow["signalKind"]) =>
  kind ? kind.toLowerCase() : "—";

export const formatDifficulty = (value: number | null) => (value === null ? "—" : value.toFixed(2));

export function TaskHeaderCells() {
  return (
    <>
      <Th align="right">Task</Th>
      <Th>Instruction</Th>
      <Th>Skill</Th>
      <Th align="right">Level</Th>
      <Th align="right">
        <abbr title="Estimated / measured difficulty" className="no-underline">
          Difficulty est. / meas.
        </abbr>
      </Th>
      <Th>Origin</Th>
      <Th>Signal</Th>
      <Th>Validation</Th>
      <Th>Review</Th>
    </>
  );
}

export function TaskCells({ task, taskHref }: { task: GenerationTaskRow; taskHref: string }) {
  return (
    <>
      <th scope="row" className="px-3 py-1.5 text-right font-medium tabular-nums">
        <Link href={taskHref} id={`task-${task.id}`} className="hover:underline">
          {task.id}
        </Link>
      </th>
      <Td className="max-w-md">
        <Link
          href={taskHref}
          className="line-clamp-2 break-words hover:underline"
          title={task.instruction}
        >
          {task.instruction}
        </Link>
      </Td>
      <Td>
        <Badge>{task.skill}</Badge>
      </Td>
      <Td align="right" className="tabular-nums">
        {task.level}
      </Td>
      <Td align="right" className="whitespace-nowrap tabular-nums">
        {formatDifficulty(task.estimatedDifficulty)} / {formatDifficulty(task.measuredDifficulty)}
      </Td>
      <Td className="text-muted">{task.origin.toLowerCase()}</Td>
      <Td className="text-muted">{signalLabel(task.signalKind)}</Td>
      <Td>
        {task.validationReason ? (
          <details>
            <summary className="cursor-pointer">
              <Badge tone={validationTone[task.validationStatus]}>
                {task.validationStatus.toLowerCase()}
              </Badge>
            </summary>
            <p className="mt-1 max-w-xs text-xs break-words text-muted">{task.validationReason}</p>
          </details>
        ) : (
          <Badge tone={validationTone[task.validationStatus]}>
            {task.validationStatus.toLowerCase()}
          </Badge>
        )}
      </Td>
      <Td className="max-w-xs">
        <Badge tone={reviewTone[task.reviewStatus]}>{task.reviewStatus.toLowerCase()}</Badge>
        {task.reviewer ? <span className="ml-1 text-xs text-muted">{task.reviewer}</span> : null}
        {task.reviewNote ? (
          <p className="mt-0.5 line-clamp-2 text-xs break-words text-muted" title={task.reviewNote}>
            “{task.reviewNote}”
          </p>
        ) : null}
      </Td>
    </>
  );
}

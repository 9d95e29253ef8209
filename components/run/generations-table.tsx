import Link from "next/link";
import { RowTh, Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import type { GenerationRow } from "@/lib/db/queries/generations";
import {
  formatDuration,
  formatPercent,
  formatTime,
  stageName,
  statusText,
  statusTone,
} from "./format";
import { runPaths } from "./view-context";
import { redactEndpoints } from "@/lib/share/redact";

/** The generation timeline; each generation links to its browser under the view's basePath. */
export function GenerationsTable({
  generations,
  basePath,
  canAct,
}: {
  generations: GenerationRow[];
  basePath: string;
  /** False on a share: errors are shown without the endpoints they name. */
  canAct: boolean;
}) {
  const shownError = (error: string) => (canAct ? error : redactEndpoints(error));
  return (
    <Table caption="Generations, newest first">
      <TableHead>
        <Th align="right">Generation</Th>
        <Th>Status</Th>
        <Th>Stage</Th>
        <Th align="right">Held-out success</Th>
        <Th align="right">Policy</Th>
        <Th>Started (UTC)</Th>
        <Th align="right">Duration</Th>
        <Th>Error</Th>
      </TableHead>
      <tbody>
        {generations.map((generation) => (
          <Tr key={generation.index}>
            <RowTh align="right" className="tabular-nums">
              <Link
                href={runPaths.generation(basePath, generation.index)}
                className="text-accent underline-offset-2 hover:underline"
              >
                {generation.index}
              </Link>
            </RowTh>
            <Td>
              <span
                className={`rounded border px-1.5 py-0.5 text-xs font-medium ${statusTone[generation.status]}`}
              >
                {statusText(generation.status)}
              </span>
            </Td>
            <Td className="text-muted">{stageName(generation.stage)}</Td>
            <Td align="right" className="tabular-nums">
              {formatPercent(generation.heldoutSuccess)}
            </Td>
            <Td align="right" className="text-muted tabular-nums">
              v{generation.policyVersion}
            </Td>
            <Td className="text-muted tabular-nums">
              {generation.startedAt ? (
                <time dateTime={generation.startedAt}>{formatTime(generation.startedAt)}</time>
              ) : (
                "—"
              )}
            </Td>
            <Td align="right" className="text-muted tabular-nums">
              {formatDuration(generation.startedAt, generation.finishedAt)}
            </Td>
            <Td
              className={`max-w-md ${
                generation.status === "FAILED" ? "text-red-700 dark:text-red-300" : "text-muted"
              }`}
            >
              {generation.error ? (
                <span className="line-clamp-2 break-words" title={shownError(generation.error)}>
                  {shownError(generation.error)}
                </span>
              ) : null}
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

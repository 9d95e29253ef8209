import Link from "next/link";
import type { RunListItem } from "@/lib/db/queries/runs";
import { Table, TableHead, Td, Th, Tr } from "@/components/ui/table";

const modeLabel: Record<RunListItem["mode"], string> = {
  COEVOLVE: "co-evolve",
  STATIC: "static",
  UNIFORM: "uniform",
};

export function RunsTable({ runs }: { runs: RunListItem[] }) {
  return (
    <Table caption="All runs, newest first">
      <TableHead>
        <Th>Name</Th>
        <Th>Mode</Th>
        <Th>Status</Th>
        <Th align="right">Generations</Th>
        <Th>Created</Th>
      </TableHead>
      <tbody>
        {runs.map((run) => (
          <Tr key={run.id} className="hover:bg-panel">
            <Td className="font-medium">
              <Link
                href={`/runs/${run.slug}`}
                className="text-fg underline-offset-2 hover:text-accent hover:underline"
              >
                {run.name}
              </Link>
            </Td>
            <Td>{modeLabel[run.mode]}</Td>
            <Td>{run.status.toLowerCase()}</Td>
            <Td align="right" className="tabular-nums">
              {run.generationCount}
            </Td>
            <Td className="text-muted">
              <time dateTime={run.createdAt.toISOString()}>
                {run.createdAt.toISOString().slice(0, 16).replace("T", " ")}
              </time>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

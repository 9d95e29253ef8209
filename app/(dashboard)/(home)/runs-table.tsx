import Link from "next/link";
import { Sparkline } from "@/components/charts/sparkline";
import { Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import { formatRate } from "@/lib/charts/format";
import type { RunListItem } from "@/lib/db/queries/runs";

const modeLabel: Record<RunListItem["mode"], string> = {
  COEVOLVE: "co-evolve",
  STATIC: "static",
  UNIFORM: "uniform",
};

export type RunsTableProps = {
  runs: RunListItem[];
  /** Held-out success per generation (oldest first) by run id; absent: not evaluated yet. */
  heldout: Record<number, number[]>;
};

export function RunsTable({ runs, heldout }: RunsTableProps) {
  return (
    <Table caption="All runs, newest first">
      <TableHead>
        <Th>Name</Th>
        <Th>Mode</Th>
        <Th>Status</Th>
        <Th align="right">Generations</Th>
        <Th align="right">Held-out success</Th>
        <Th>Trend</Th>
        <Th>Created</Th>
      </TableHead>
      <tbody>
        {runs.map((run) => {
          const curve = heldout[run.id] ?? [];
          return (
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
              <Td align="right" className="tabular-nums">
                {formatRate(curve.at(-1) ?? null)}
              </Td>
              <Td className="py-1">
                <Sparkline values={curve} />
              </Td>
              <Td className="text-muted">
                <time dateTime={run.createdAt.toISOString()}>
                  {run.createdAt.toISOString().slice(0, 16).replace("T", " ")}
                </time>
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** Runs launched together (the demo trio) compare in one click. */
export function CompareGroups({ runs }: { runs: RunListItem[] }) {
  const groups = new Map<string, RunListItem[]>();
  for (const run of runs) {
    if (run.compareGroup)
      groups.set(run.compareGroup, [...(groups.get(run.compareGroup) ?? []), run]);
  }
  const comparable = [...groups.values()].filter((group) => group.length > 1);
  return (
    <nav aria-label="Compare runs" className="flex flex-wrap items-center gap-2 text-sm">
      {comparable.map((group) => {
        // Oldest first, so the group reads in the order it was launched (co-evolve, static, uniform).
        const ordered = [...group].reverse();
        return (
          <Link
            key={ordered[0]!.compareGroup}
            href={`/compare?runs=${ordered.map((run) => run.slug).join(",")}`}
            className="rounded-md border border-border px-2.5 py-1 hover:bg-panel"
          >
            Compare {ordered.map((run) => modeLabel[run.mode]).join(" vs ")}
            <span className="text-muted"> ({ordered[0]!.compareGroup})</span>
          </Link>
        );
      })}
      <Link
        href="/compare"
        className="px-1 text-muted underline-offset-2 hover:text-fg hover:underline"
      >
        Compare runs…
      </Link>
    </nav>
  );
}

import Link from "next/link";
import type { RunListItem } from "@/lib/db/queries/runs";

const modeLabel: Record<RunListItem["mode"], string> = {
  COEVOLVE: "co-evolve",
  STATIC: "static",
  UNIFORM: "uniform",
};

export function RunsTable({ runs }: { runs: RunListItem[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">All runs, newest first</caption>
        <thead className="bg-panel text-muted">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Name
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Mode
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Generations
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Created
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} className="border-t border-border hover:bg-panel">
              <td className="px-4 py-2 font-medium">
                <Link
                  href={`/runs/${run.slug}`}
                  className="text-fg underline-offset-2 hover:text-accent hover:underline"
                >
                  {run.name}
                </Link>
              </td>
              <td className="px-4 py-2">{modeLabel[run.mode]}</td>
              <td className="px-4 py-2">{run.status.toLowerCase()}</td>
              <td className="px-4 py-2 text-right tabular-nums">{run.generationCount}</td>
              <td className="px-4 py-2 text-muted">
                <time dateTime={run.createdAt.toISOString()}>
                  {run.createdAt.toISOString().slice(0, 16).replace("T", " ")}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

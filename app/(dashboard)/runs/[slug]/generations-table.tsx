import type { GenerationRow } from "@/lib/db/queries/generations";
import {
  formatDuration,
  formatPercent,
  formatTime,
  stageName,
  statusText,
  statusTone,
} from "./format";

export function GenerationsTable({ generations }: { generations: GenerationRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Generations, newest first</caption>
        <thead className="bg-panel text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Generation
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Stage
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Held-out success
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Policy
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Started (UTC)
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Duration
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Error
            </th>
          </tr>
        </thead>
        <tbody>
          {generations.map((generation) => (
            <tr key={generation.index} className="border-t border-border align-top">
              <th scope="row" className="px-3 py-1.5 text-right font-medium tabular-nums">
                {generation.index}
              </th>
              <td className="px-3 py-1.5">
                <span
                  className={`rounded border px-1.5 py-0.5 text-xs font-medium ${statusTone[generation.status]}`}
                >
                  {statusText(generation.status)}
                </span>
              </td>
              <td className="px-3 py-1.5 text-muted">{stageName(generation.stage)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">
                {formatPercent(generation.heldoutSuccess)}
              </td>
              <td className="px-3 py-1.5 text-right text-muted tabular-nums">
                v{generation.policyVersion}
              </td>
              <td className="px-3 py-1.5 text-muted tabular-nums">
                {generation.startedAt ? (
                  <time dateTime={generation.startedAt}>{formatTime(generation.startedAt)}</time>
                ) : (
                  "—"
                )}
              </td>
              <td className="px-3 py-1.5 text-right text-muted tabular-nums">
                {formatDuration(generation.startedAt, generation.finishedAt)}
              </td>
              <td
                className={`max-w-md px-3 py-1.5 ${
                  generation.status === "FAILED" ? "text-red-700 dark:text-red-300" : "text-muted"
                }`}
              >
                {generation.error ? (
                  <span className="line-clamp-2 break-words" title={generation.error}>
                    {generation.error}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

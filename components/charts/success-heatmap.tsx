import { formatRate } from "@/lib/charts/format";
import type { HeatmapCell, SuccessHeatmap as Heatmap } from "@/lib/charts/heatmap";

/**
 * Eight steps from failing to solving; the text in each cell carries the value, the colour only
 * helps the eye (and is light enough for dark text in both themes).
 */
const RAMP = [
  "bg-red-500/35",
  "bg-red-500/25",
  "bg-orange-400/25",
  "bg-amber-300/25",
  "bg-lime-400/25",
  "bg-green-500/25",
  "bg-emerald-500/35",
  "bg-emerald-500/50",
];

const toneOf = (rate: number) => RAMP[Math.min(RAMP.length - 1, Math.floor(rate * RAMP.length))];

function cellLabel(skill: string, cell: HeatmapCell): string {
  if (cell.rate === null) return `${skill}, generation ${cell.generation}: not evaluated`;
  const base = `${skill}, generation ${cell.generation}: ${formatRate(cell.rate)} of ${cell.attempts} episodes`;
  return cell.drop === null
    ? base
    : `${base}; forgetting, ${(cell.drop * 100).toFixed(1)} points below the earlier best ${formatRate(cell.bestBefore)}`;
}

/** Skill × generation held-out success as a real table: rows are skills, columns generations. */
export function SuccessHeatmap({ heatmap }: { heatmap: Heatmap }) {
  return (
    <div className="space-y-2">
      <div
        role="region"
        aria-label="Held-out success heatmap"
        tabIndex={0}
        className="overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-accent"
      >
        <table className="w-full border-collapse text-xs">
          <caption className="sr-only">
            Held-out success by skill (rows) and generation (columns); ▼ marks forgetting
          </caption>
          <thead className="bg-panel text-muted">
            <tr>
              <th scope="col" className="px-2 py-1.5 text-left font-medium">
                Skill
              </th>
              {heatmap.generations.map((generation) => (
                <th key={generation} scope="col" className="px-2 py-1.5 text-right font-medium">
                  <span className="sr-only">Generation </span>
                  {generation}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {heatmap.skills.map((skill) => (
              <tr key={skill} className="border-t border-border">
                <th scope="row" className="px-2 py-1 text-left font-medium">
                  {skill}
                </th>
                {heatmap.cells[skill]!.map((cell) => (
                  <td
                    key={cell.generation}
                    aria-label={cellLabel(skill, cell)}
                    title={cellLabel(skill, cell)}
                    data-forgetting={cell.drop !== null ? "true" : undefined}
                    className={`px-2 py-1 text-right whitespace-nowrap tabular-nums ${
                      cell.rate === null ? "text-muted" : toneOf(cell.rate)
                    } ${cell.drop !== null ? "font-semibold ring-2 ring-red-600 ring-inset dark:ring-red-400" : ""}`}
                  >
                    {cell.drop !== null && (
                      <span aria-hidden="true" className="mr-0.5 text-red-700 dark:text-red-300">
                        ▼
                      </span>
                    )}
                    {formatRate(cell.rate)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
        <span className="flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-block rounded px-1 font-semibold text-red-700 ring-2 ring-red-600 ring-inset dark:text-red-300 dark:ring-red-400"
          >
            ▼
          </span>
          Forgetting: at least {Math.round(heatmap.threshold * 100)} points below the best of an
          earlier generation
        </span>
        <span className="flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block h-3 w-6 rounded ${RAMP[0]}`} />
          0%
          <span aria-hidden="true" className={`inline-block h-3 w-6 rounded ${RAMP[7]}`} />
          100%
        </span>
      </p>
    </div>
  );
}

import { Badge } from "@/components/ui/badge";
import type { TaskSignal } from "@/lib/db/queries/tasks";

/** Details that say why the signal fired, in the order people read them. */
const KEY_DETAILS = [
  "scope",
  "passRate",
  "from",
  "to",
  "passedInGeneration",
  "meanEntropy",
  "tool",
  "transition",
  "count",
  "attempts",
  "successes",
  "skill",
  "level",
];

function formatDetail(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export function signalDetailEntries(details: Record<string, unknown>): [string, string][] {
  return KEY_DETAILS.filter((key) => details[key] !== undefined && details[key] !== null).map(
    (key) => [key, formatDetail(details[key])],
  );
}

export function SignalSummary({ signal }: { signal: TaskSignal }) {
  const details = signalDetailEntries(signal.details);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Badge tone="warn">{signal.kind.toLowerCase()} signal</Badge>
      <span className="tabular-nums">score {signal.score.toFixed(2)}</span>
      {details.length > 0 && (
        <span className="font-mono">
          {details.map(([key, value]) => `${key}=${value}`).join(" · ")}
        </span>
      )}
    </span>
  );
}

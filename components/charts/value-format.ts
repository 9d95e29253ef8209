import { formatCount, formatDifficulty, formatRate } from "@/lib/charts/format";

/**
 * How a chart's values read. Client charts receive the name, not a function: props that cross
 * from a server component to a client one must be plain data.
 */
export type ValueFormat = "percent" | "count" | "difficulty";

export function formatValue(format: ValueFormat, value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  switch (format) {
    case "percent":
      return formatRate(value);
    case "count":
      return formatCount(value);
    case "difficulty":
      return formatDifficulty(value);
  }
}

/** Axis ticks: shorter than tooltip values. */
export function formatTick(format: ValueFormat, value: number): string {
  switch (format) {
    case "percent":
      return `${Math.round(value * 100)}%`;
    case "count":
      return value >= 10_000 ? `${Math.round(value / 1000)}k` : String(value);
    case "difficulty":
      return value.toFixed(1);
  }
}

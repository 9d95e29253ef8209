import { formatRate } from "./format";

/**
 * An SVG path through values in 0–1, left to right, inside width × height (y grows downward).
 * A single value draws a short flat line so it is still visible.
 */
export function sparklinePath(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return "";
  const pad = 1.5;
  const y = (v: number) =>
    (pad + (1 - Math.min(1, Math.max(0, v))) * (height - 2 * pad)).toFixed(1);
  if (values.length === 1) return `M${pad},${y(values[0]!)}H${width - pad}`;
  const step = (width - 2 * pad) / (values.length - 1);
  return values
    .map((v, i) => `${i === 0 ? "M" : "L"}${(pad + i * step).toFixed(1)},${y(v)}`)
    .join("");
}

/** What a sparkline shows, in words: its accessible name. */
export function describeTrend(values: readonly number[]): string {
  if (values.length === 0) return "No held-out results yet";
  const firstValue = values[0]!;
  const last = values.at(-1)!;
  const generations = values.length === 1 ? "1 generation" : `${values.length} generations`;
  if (values.length === 1) return `Held-out success over ${generations}: ${formatRate(firstValue)}`;
  const points = (last - firstValue) * 100;
  const trend =
    Math.abs(points) < 0.05
      ? "unchanged"
      : `${points > 0 ? "up" : "down"} ${Math.abs(points).toFixed(1)} points`;
  return `Held-out success over ${generations}: ${formatRate(firstValue)} to ${formatRate(last)}, ${trend}`;
}

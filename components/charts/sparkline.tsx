import { describeTrend, sparklinePath } from "@/lib/charts/sparkline";

const WIDTH = 80;
const HEIGHT = 22;

/** A tiny trend line (server-rendered SVG); its accessible name says the trend in words. */
export function Sparkline({ values }: { values: number[] }) {
  const label = describeTrend(values);
  if (values.length === 0) {
    return (
      <span className="text-muted" title={label}>
        <span aria-hidden="true">—</span>
        <span className="sr-only">{label}</span>
      </span>
    );
  }
  const last = values.at(-1)!;
  const lastX = WIDTH - 1.5;
  const lastY = 1.5 + (1 - last) * (HEIGHT - 3);
  return (
    <svg
      role="img"
      aria-label={label}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="inline-block overflow-visible align-middle text-accent"
    >
      <title>{label}</title>
      <path
        d={sparklinePath(values, WIDTH, HEIGHT)}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      <circle cx={lastX} cy={lastY} r={2} fill="currentColor" />
    </svg>
  );
}

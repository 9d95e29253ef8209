"use client";

import {
  Bar,
  BarChart as RechartsBarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartTooltip } from "./chart-tooltip";
import { chartTheme } from "./palette";
import { formatTick, type ValueFormat } from "./value-format";

export type BarSeries = { key: string; label: string; color: string };

export type BarChartProps = {
  /** One group per category: `{ x: label, [series key]: value }`. */
  data: Array<Record<string, string | number | null>>;
  series: BarSeries[];
  format: ValueFormat;
  xLabel: string;
  /** Stacked: parts of one whole (signal mix). Grouped: runs side by side (compare). */
  isStacked?: boolean;
  yDomain?: [number, number];
  height?: number;
};

export function BarChart({
  data,
  series,
  format,
  xLabel,
  isStacked = false,
  yDomain,
  height = 240,
}: BarChartProps) {
  return (
    <div aria-hidden="true" className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <RechartsBarChart
          accessibilityLayer={false}
          data={data}
          margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        >
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="x"
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            stroke={chartTheme.grid}
            label={{
              value: xLabel,
              position: "insideBottom",
              offset: -4,
              fill: chartTheme.axis,
              fontSize: 12,
            }}
            height={36}
          />
          <YAxis
            domain={yDomain ?? [0, "auto"]}
            allowDecimals={format !== "count"}
            tickFormatter={(v: number) => formatTick(format, v)}
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            stroke={chartTheme.grid}
            width={48}
          />
          <Tooltip
            cursor={{ fill: chartTheme.grid, opacity: 0.4 }}
            content={({ active, payload, label }) => (
              <ChartTooltip
                active={active}
                payload={payload}
                label={label}
                format={format}
                labelPrefix={xLabel}
              />
            )}
          />
          <Legend
            verticalAlign="top"
            height={28}
            wrapperStyle={{ fontSize: 12, color: chartTheme.text }}
          />
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              fill={s.color}
              stackId={isStacked ? "stack" : undefined}
              isAnimationActive={false}
            />
          ))}
        </RechartsBarChart>
      </ResponsiveContainer>
    </div>
  );
}

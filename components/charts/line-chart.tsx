"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart as RechartsLineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartTooltip } from "./chart-tooltip";
import { chartTheme } from "./palette";
import { formatTick, type ValueFormat } from "./value-format";

export type LineSeries = { key: string; label: string; color: string };

export type LineChartProps = {
  /** One point per x (a generation): `{ x, [series key]: value | null }`. */
  data: Array<Record<string, number | null>>;
  series: LineSeries[];
  format: ValueFormat;
  xLabel: string;
  /** Fixed [0, 1] for shares, so lines of different views compare at a glance. */
  yDomain?: [number, number];
  height?: number;
};

/** A line per series over generations; the accessible numbers are in the card's data table. */
export function LineChart({ data, series, format, xLabel, yDomain, height = 260 }: LineChartProps) {
  return (
    <div aria-hidden="true" className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <RechartsLineChart
          accessibilityLayer={false}
          data={data}
          margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        >
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="x"
            type="number"
            domain={["dataMin", "dataMax"]}
            allowDecimals={false}
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
            tickFormatter={(v: number) => formatTick(format, v)}
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            stroke={chartTheme.grid}
            width={48}
          />
          <Tooltip
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
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stroke={s.color}
              strokeWidth={2}
              dot={{ r: 3, fill: s.color }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </RechartsLineChart>
      </ResponsiveContainer>
    </div>
  );
}

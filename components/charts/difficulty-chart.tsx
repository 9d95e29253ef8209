"use client";

import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartTooltip } from "./chart-tooltip";
import { chartTheme } from "./palette";

export type DifficultyChartPoint = {
  x: number;
  estimatedRange: [number, number] | null;
  estimatedIqr: [number, number] | null;
  estimatedMedian: number | null;
  measuredIqr: [number, number] | null;
  measuredMedian: number | null;
};

const ESTIMATED = "#2563eb";
const MEASURED = "#d97706";

/**
 * Quantile bands per generation: estimated difficulty as min–max and q25–q75 bands with its
 * median, measured difficulty as its q25–q75 band and median; the curation band behind them.
 */
export function DifficultyChart({
  data,
  band,
  height = 260,
}: {
  data: DifficultyChartPoint[];
  band: [number, number] | null;
  height?: number;
}) {
  return (
    <div aria-hidden="true" className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          accessibilityLayer={false}
          data={data}
          margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
        >
          <CartesianGrid stroke={chartTheme.grid} strokeDasharray="3 3" />
          {band && (
            <ReferenceArea
              y1={band[0]}
              y2={band[1]}
              fill="#059669"
              fillOpacity={0.08}
              stroke="#059669"
              strokeDasharray="4 4"
              strokeOpacity={0.6}
              label={{
                value: "curation band",
                position: "insideTopRight",
                fill: chartTheme.axis,
                fontSize: 11,
              }}
            />
          )}
          <XAxis
            dataKey="x"
            type="number"
            domain={["dataMin", "dataMax"]}
            allowDecimals={false}
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            stroke={chartTheme.grid}
            label={{
              value: "Generation",
              position: "insideBottom",
              offset: -4,
              fill: chartTheme.axis,
              fontSize: 12,
            }}
            height={36}
          />
          <YAxis
            domain={[0, 1]}
            ticks={[0, 0.25, 0.5, 0.75, 1]}
            tickFormatter={(v: number) => v.toFixed(2)}
            tick={{ fill: chartTheme.axis, fontSize: 12 }}
            stroke={chartTheme.grid}
            width={44}
          />
          <Tooltip
            content={({ active, payload, label }) => (
              <ChartTooltip
                active={active}
                payload={payload}
                label={label}
                format="difficulty"
                labelPrefix="Generation"
              />
            )}
          />
          <Legend
            verticalAlign="top"
            height={28}
            wrapperStyle={{ fontSize: 12, color: chartTheme.text }}
          />
          <Area
            dataKey="estimatedRange"
            name="Estimated min–max"
            stroke="none"
            fill={ESTIMATED}
            fillOpacity={0.1}
            connectNulls
            isAnimationActive={false}
          />
          <Area
            dataKey="estimatedIqr"
            name="Estimated q25–q75"
            stroke="none"
            fill={ESTIMATED}
            fillOpacity={0.25}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="estimatedMedian"
            name="Estimated median"
            stroke={ESTIMATED}
            strokeWidth={2}
            dot={{ r: 3, fill: ESTIMATED }}
            connectNulls
            isAnimationActive={false}
          />
          <Area
            dataKey="measuredIqr"
            name="Measured q25–q75"
            stroke="none"
            fill={MEASURED}
            fillOpacity={0.25}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="measuredMedian"
            name="Measured median"
            stroke={MEASURED}
            strokeWidth={2}
            strokeDasharray="5 3"
            dot={{ r: 3, fill: MEASURED }}
            connectNulls
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

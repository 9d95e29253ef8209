"use client";

import { formatValue, type ValueFormat } from "./value-format";

type Entry = { name?: unknown; value?: unknown; color?: string; dataKey?: unknown };

/** Names and tabular numbers, on the page's own background so it reads in both themes. */
export function ChartTooltip({
  active,
  payload,
  label,
  format,
  labelPrefix,
}: {
  active?: boolean;
  payload?: readonly unknown[];
  label?: unknown;
  format: ValueFormat;
  labelPrefix: string;
}) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-border bg-bg px-3 py-2 text-xs shadow-md">
      <p className="mb-1 font-medium">
        {labelPrefix} {String(label)}
      </p>
      <ul className="space-y-0.5">
        {(payload as readonly Entry[]).map((entry) => (
          <li key={String(entry.dataKey)} className="flex items-center justify-between gap-4">
            <span className="flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="inline-block size-2 rounded-full"
                style={{ background: entry.color }}
              />
              {String(entry.name)}
            </span>
            <span className="tabular-nums">{formatEntry(format, entry.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function formatEntry(format: ValueFormat, value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((v) => formatValue(format, typeof v === "number" ? v : null)).join(" – ");
  }
  return formatValue(format, typeof value === "number" ? value : null);
}

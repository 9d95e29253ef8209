"use client";

import { useId, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import type { ExportFormat } from "@/lib/validations/export";

export type ExportButtonProps = {
  slug: string;
  /** One generation; the whole run when omitted. */
  generation?: number;
};

type Progress =
  | { phase: "idle" }
  /** `total` is null until the response headers say how many rows are coming. */
  | { phase: "running"; rows: number; total: number | null; bytes: number }
  | { phase: "done"; rows: number; filename: string }
  | { phase: "failed"; message: string };

const FORMAT_LABELS: Record<ExportFormat, string> = {
  jsonl: "Trajectories (JSONL, chat + tool calls)",
  parquet: "Trajectories (Parquet)",
  tasks: "Tasks (JSONL, import format)",
};

const NEWLINE = 10;

function filenameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
  return match?.[1] ?? fallback;
}

/**
 * Downloads an export with visible progress: the total comes first (X-Total-Rows), then the body
 * is read chunk by chunk and its lines counted. Parquet has no lines, so it shows bytes only.
 * The finished file is handed to the browser as a Blob; for very large exports use the CLI.
 */
export function ExportButton({ slug, generation }: ExportButtonProps) {
  const id = useId();
  const [format, setFormat] = useState<ExportFormat>("jsonl");
  const [purpose, setPurpose] = useState("train");
  const [status, setStatus] = useState("approved");
  const [progress, setProgress] = useState<Progress>({ phase: "idle" });
  const abort = useRef<AbortController | null>(null);
  const isRunning = progress.phase === "running";

  async function runExport() {
    abort.current = new AbortController();
    const params = new URLSearchParams({ format, purpose, status });
    if (generation !== undefined) params.set("generation", String(generation));
    setProgress({ phase: "running", rows: 0, total: null, bytes: 0 });
    try {
      const response = await fetch(`/api/runs/${encodeURIComponent(slug)}/export?${params}`, {
        signal: abort.current.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        throw new Error(body?.error ?? `Export failed (HTTP ${response.status}).`);
      }
      const total = Number(response.headers.get("X-Total-Rows") ?? 0);
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let rows = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        if (format !== "parquet") for (const byte of value) if (byte === NEWLINE) rows++;
        setProgress({ phase: "running", rows, total, bytes });
      }
      const filename = filenameOf(response, `${slug}-export`);
      const url = URL.createObjectURL(
        new Blob(chunks, { type: response.headers.get("Content-Type") ?? undefined }),
      );
      const link = document.createElement("a");
      link.href = url;
      link.download = filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setProgress({ phase: "done", rows: format === "parquet" ? total : rows, filename });
    } catch (error) {
      if ((error as Error).name === "AbortError") setProgress({ phase: "idle" });
      else setProgress({ phase: "failed", message: (error as Error).message });
    }
  }

  const selectClass = "rounded-md border border-border bg-bg px-2 py-1 text-sm";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-xs text-muted" htmlFor={`${id}-format`}>
          Format
          <select
            id={`${id}-format`}
            className={selectClass}
            value={format}
            disabled={isRunning}
            onChange={(event) => setFormat(event.target.value as ExportFormat)}
          >
            {Object.entries(FORMAT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {format !== "tasks" && (
          <label className="flex flex-col gap-1 text-xs text-muted" htmlFor={`${id}-purpose`}>
            Rollouts
            <select
              id={`${id}-purpose`}
              className={selectClass}
              value={purpose}
              disabled={isRunning}
              onChange={(event) => setPurpose(event.target.value)}
            >
              <option value="train">Training</option>
              <option value="eval">Evaluation</option>
              <option value="all">All</option>
            </select>
          </label>
        )}
        <label className="flex flex-col gap-1 text-xs text-muted" htmlFor={`${id}-status`}>
          Tasks
          <select
            id={`${id}-status`}
            className={selectClass}
            value={status}
            disabled={isRunning}
            onChange={(event) => setStatus(event.target.value)}
          >
            <option value="approved">Approved only</option>
            <option value="all">All reviewed or not</option>
          </select>
        </label>
        <button
          type="button"
          className={buttonClass({ variant: "secondary" })}
          disabled={isRunning}
          onClick={runExport}
        >
          Export
        </button>
        {isRunning && (
          <button
            type="button"
            className={buttonClass({ variant: "ghost" })}
            onClick={() => abort.current?.abort()}
          >
            Cancel export
          </button>
        )}
      </div>
      {progress.phase === "running" && (
        <ExportProgress
          rows={progress.rows}
          total={format === "parquet" ? null : progress.total}
          label={
            progress.total === null
              ? "Preparing export…"
              : format === "parquet"
                ? `${(progress.bytes / 1e6).toFixed(1)} MB of ${progress.total} rows`
                : `${progress.rows} of ${progress.total} rows`
          }
        />
      )}
      <p role="status" aria-live="polite" className="text-xs text-muted">
        {progress.phase === "done" && `Exported ${progress.rows} rows to ${progress.filename}.`}
        {progress.phase === "failed" && (
          <span className="text-red-700 dark:text-red-300">{progress.message}</span>
        )}
      </p>
    </div>
  );
}

/** Determinate once the row total is known; indeterminate (no aria-valuenow) before, or for Parquet. */
function ExportProgress({
  rows,
  total,
  label,
}: {
  rows: number;
  total: number | null;
  label: string;
}) {
  const percent = total === null || total === 0 ? 100 : Math.min(100, (100 * rows) / total);
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={total === null ? undefined : rows}
        aria-valuetext={label}
        className="h-2 w-64 overflow-hidden rounded bg-panel"
      >
        <div
          className={`h-full bg-accent transition-[width] ${total === null ? "animate-pulse" : ""}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-xs text-muted">{label}</p>
    </div>
  );
}

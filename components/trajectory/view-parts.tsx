import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { RunDetail } from "@/lib/db/queries/runs";
import type { TrajectoryPurpose } from "@/lib/generated/prisma/enums";
import { RunConfigSchema } from "@/lib/validations/run-config";

/** Small pieces the task, trajectory and group views share. Server components only. */

export type Crumb = { label: string; href?: string };

/**
 * Starts at the run, never at "/": inside a share link the views must not link out of the share.
 */
export function RunBreadcrumb({
  run,
  basePath,
  trail,
}: {
  run: Pick<RunDetail, "name">;
  basePath: string;
  trail: Crumb[];
}) {
  const crumbs: Crumb[] = [{ label: run.name, href: basePath }, ...trail];
  return (
    <nav aria-label="Breadcrumb" className="text-xs text-muted">
      <ol className="flex flex-wrap items-center gap-1">
        {crumbs.map((crumb, i) => (
          <li key={`${crumb.label}-${i}`} className="flex items-center gap-1">
            {i > 0 && <span aria-hidden="true">/</span>}
            {crumb.href ? (
              <Link href={crumb.href} className="hover:text-fg hover:underline">
                {crumb.label}
              </Link>
            ) : (
              <span aria-current="page" className="text-fg">
                {crumb.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="truncate text-xs text-muted">{term}</dt>
      <dd className="font-medium break-words tabular-nums">{children}</dd>
    </div>
  );
}

export function FactGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <dl
      aria-label={label}
      className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-border px-4 py-3 text-sm sm:grid-cols-3 lg:grid-cols-6"
    >
      {children}
    </dl>
  );
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

const LONG_JSON_CHARS = 1_200;
const LONG_JSON_LINES = 30;

/**
 * Pretty JSON. Long values start collapsed behind a native <details> (keyboard and screen reader
 * friendly for free); wrapping instead of horizontal scrolling keeps it readable on a laptop.
 */
export function JsonBlock({
  label,
  value,
  isCollapsed,
}: {
  label: string;
  value: unknown;
  /** Defaults to collapsing long values only. */
  isCollapsed?: boolean;
}) {
  const text = prettyJson(value);
  const lines = text.split("\n").length;
  const pre = (
    <pre className="rounded-md border border-border bg-panel px-3 py-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap">
      {text}
    </pre>
  );
  const collapse = isCollapsed ?? (text.length > LONG_JSON_CHARS || lines > LONG_JSON_LINES);
  if (!collapse) {
    return (
      <div className="min-w-0 space-y-1">
        <p className="text-xs text-muted">{label}</p>
        {pre}
      </div>
    );
  }
  return (
    <details className="group min-w-0 space-y-1">
      <summary className="cursor-pointer text-xs text-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-accent">
        {label}{" "}
        <span className="tabular-nums">
          ({lines} lines, {text.length.toLocaleString("en-US")} chars)
        </span>
      </summary>
      {pre}
    </details>
  );
}

/** A value in [0, 1] as a tiny bar; the number is always printed beside it (bars are decoration). */
export function ShareBar({ share, tone = "accent" }: { share: number; tone?: "accent" | "amber" }) {
  const width = `${Math.round(Math.min(1, Math.max(0, share)) * 100)}%`;
  return (
    <span
      aria-hidden="true"
      className="inline-block h-1.5 w-16 rounded-full bg-border align-middle"
    >
      <span
        className={`block h-full rounded-full ${tone === "accent" ? "bg-accent" : "bg-amber-500"}`}
        style={{ width }}
      />
    </span>
  );
}

export const purposeLabel: Record<TrajectoryPurpose, string> = {
  TRAIN: "train",
  EVAL: "eval",
  VALIDATION: "validation",
};

export function parsePurpose(value: string | string[] | undefined): TrajectoryPurpose | null {
  const text = Array.isArray(value) ? value[0] : value;
  switch (text) {
    case "train":
      return "TRAIN";
    case "eval":
      return "EVAL";
    case "validation":
      return "VALIDATION";
    default:
      return null;
  }
}

export const firstParam = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;

export function formatNumber(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "—"
    : value.toFixed(digits);
}

export function formatSigned(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

export function SuccessBadge({ success }: { success: boolean }) {
  return <Badge tone={success ? "good" : "bad"}>{success ? "success" : "fail"}</Badge>;
}

/** The run's GRPO group size G; the engine's default when a stored config cannot be read. */
export function groupSizeOf(run: Pick<RunDetail, "config">): number {
  const parsed = RunConfigSchema.safeParse(run.config);
  return parsed.success ? parsed.data.groupSize : 8;
}

/** A query string from the given params, dropping empty ones. */
export function withQuery(path: string, params: Record<string, string | null | undefined>) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** Arguments on one line for dense grids: `{}` is shown as nothing. */
export function canonicalArgs(args: unknown): string {
  const text = JSON.stringify(args) ?? "";
  return text === "{}" ? "" : text;
}

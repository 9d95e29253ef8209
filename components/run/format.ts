import type { GenerationStatus, Stage } from "@/lib/generated/prisma/enums";

/** Labels and number formats shared by the run page (server) and its round panel (client). */

export const stageLabel: Record<Exclude<Stage, "DONE">, string> = {
  SEED: "Seed",
  ROLLOUT: "Rollout",
  TRAIN: "Train",
  EVALUATE: "Evaluate",
  SIGNALS: "Signals",
  SYNTHESIZE: "Synthesize",
  VALIDATE: "Validate",
  CURATE: "Curate",
  NEXT_POOL: "Next pool",
};

export function stageName(stage: Stage): string {
  return stage === "DONE" ? "Done" : stageLabel[stage];
}

export const statusTone: Record<GenerationStatus, string> = {
  QUEUED: "border-border text-muted",
  RUNNING: "border-accent/40 bg-accent/10 text-accent",
  AWAITING_REVIEW: "border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-300",
  DONE: "border-emerald-600/30 bg-emerald-600/10 text-emerald-700 dark:text-emerald-300",
  FAILED: "border-red-600/30 bg-red-600/10 text-red-700 dark:text-red-300",
  CANCELLED: "border-border bg-panel text-muted",
};

/** The status as rendered (upper case, as stored: tests and people grep for DONE, FAILED…). */
export function statusText(status: GenerationStatus): string {
  return status.replace("_", " ");
}

export function formatPercent(share: number | null): string {
  return share === null ? "—" : `${(share * 100).toFixed(1)}%`;
}

export function formatDuration(startedAt: string | null, finishedAt: string | null): string {
  if (!startedAt || !finishedAt) return "—";
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return minutes < 60
    ? `${minutes} min ${seconds} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** UTC, minute precision: the same on the server and in every browser (no hydration drift). */
export function formatTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "—";
}

import type { ReactNode } from "react";

const tones = {
  neutral: "border-border text-muted",
  strong: "border-border text-fg",
  good: "border-emerald-600/30 text-emerald-700 dark:text-emerald-300",
  warn: "border-amber-600/30 text-amber-700 dark:text-amber-300",
  bad: "border-red-600/30 text-red-700 dark:text-red-300",
  info: "border-sky-600/30 text-sky-700 dark:text-sky-300",
} as const;

export type BadgeTone = keyof typeof tones;

/** A small bordered label: statuses, modes, skills. Colour is never the only carrier of meaning. */
export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-block rounded border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

import type { Rate } from "./types";

/** "42.5%" or "—": the one percent format of every chart, tooltip, data table and list cell. */
export function formatRate(rate: Rate): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)}%`;
}

/** Difficulty is a 0–1 score; two decimals are what a person compares. */
export function formatDifficulty(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(2);
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

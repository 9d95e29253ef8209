/**
 * Series colours: mid-tone hues that keep ≥ 3:1 contrast on both the light and the dark
 * background, distinct for the common colour-vision deficiencies in the first five. Colour is never
 * the only carrier: every chart has a legend, a tooltip with names and a data table.
 */
export const SERIES_COLORS = [
  "#2563eb", // blue
  "#d97706", // amber
  "#059669", // emerald
  "#db2777", // pink
  "#7c3aed", // violet
  "#0891b2", // cyan
  "#65a30d", // lime
  "#dc2626", // red
] as const;

export const seriesColor = (index: number): string => SERIES_COLORS[index % SERIES_COLORS.length]!;

/** Theme tokens (app/globals.css), read by the SVG at paint time so dark mode just works. */
export const chartTheme = {
  grid: "var(--color-border)",
  axis: "var(--color-muted)",
  text: "var(--color-fg)",
  panel: "var(--color-bg)",
} as const;

/** The fixed meaning colours of the stacked bars (signals, review outcomes). */
export const outcomeColors = {
  forgetting: "#dc2626",
  boundary: "#d97706",
  rare: "#7c3aed",
  uniform: "#0891b2",
  approved: "#059669",
  rejected: "#dc2626",
  pending: "#94a3b8",
} as const;

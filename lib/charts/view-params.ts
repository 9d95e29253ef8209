import type { StatSplit } from "./types";

/** Next's awaited searchParams (same shape as ViewSearchParams in components/run/view-context). */
type SearchParams = Record<string, string | string[] | undefined>;

export type SuccessView = {
  split: StatSplit;
  /** null: every skill (the parameter is absent); []: none picked. */
  skills: string[] | null;
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A comma-separated list parameter: trimmed, de-duplicated, empty entries dropped. */
export function parseList(value: string | string[] | undefined): string[] {
  const raw = first(value) ?? "";
  return [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * `?split=train&skills=lookup,pay`: the success chart's view. Held-out is the default; anything
 * but "train" reads as held-out, so a mangled link still shows a chart.
 */
export function parseSuccessView(params: SearchParams): SuccessView {
  const split = first(params.split) === "train" ? "TRAIN" : "HELDOUT";
  const skills = params.skills === undefined ? null : parseList(params.skills);
  return { split, skills };
}

/** The query string for a success view, keeping every other parameter of the page as it was. */
export function successViewQuery(current: SearchParams, view: SuccessView): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(current)) {
    if (key === "split" || key === "skills" || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  }
  if (view.split === "TRAIN") query.set("split", "train");
  if (view.skills !== null) query.set("skills", view.skills.join(","));
  // Commas are safe in a query and keep the URL readable (`skills=lookup,pay`).
  return query.toString().replaceAll("%2C", ",");
}

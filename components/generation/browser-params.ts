import type { ViewSearchParams } from "@/components/run/view-context";
import {
  TASK_SORTS,
  decodeCursor,
  type PageRequest,
  type TaskSort,
} from "@/lib/db/queries/generation-tasks";
import { TaskFilterSchema, type TaskFilter } from "@/lib/validations/task-filter";

/**
 * The generation browser's whole state, read from the URL: filter, sort and page cursor. A copied
 * link reproduces the view; a link we cannot read falls back to a sensible view and says why.
 */

export const PAGE_SIZE = 50;

export type BrowserState = {
  filter: TaskFilter;
  sort: TaskSort;
  page: PageRequest | undefined;
  /** Why part of the link was ignored, for the person who followed it. */
  problems: string[];
};

export const EMPTY_FILTER: TaskFilter = TaskFilterSchema.parse({});

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function parseBrowserState(params: ViewSearchParams): BrowserState {
  const problems: string[] = [];
  const parsed = TaskFilterSchema.safeParse({
    skill: params.skill,
    review: params.review,
    signal: params.signal,
    origin: params.origin,
    validation: params.validation,
    minDifficulty: single(params.minDifficulty),
    maxDifficulty: single(params.maxDifficulty),
    q: single(params.q) || undefined,
  });
  let filter = EMPTY_FILTER;
  if (parsed.success) filter = parsed.data;
  else {
    const fields = [
      ...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "filter"))),
    ];
    problems.push(
      `The filter in this link is not valid (${fields.join(", ")}: ${parsed.error.issues[0]!.message}); showing every task.`,
    );
  }

  const rawSort = single(params.sort);
  let sort: TaskSort = "newest";
  if (rawSort && (TASK_SORTS as readonly string[]).includes(rawSort)) sort = rawSort as TaskSort;
  else if (rawSort) problems.push(`Unknown sort "${rawSort}"; sorted newest first.`);

  let page: PageRequest | undefined;
  const after = single(params.after);
  const before = single(params.before);
  if (before === "end") page = { direction: "before", cursor: "end" };
  else if (after || before) {
    const cursor = decodeCursor((after ?? before)!, sort);
    if (cursor) page = { direction: after ? "after" : "before", cursor };
    else problems.push("The page position in this link is not valid; showing the first page.");
  }
  return { filter, sort, page, problems };
}

/** The filter as URL params, in one canonical spelling (lists comma-separated). */
export function filterParams(filter: TaskFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["skill", "review", "signal", "origin", "validation"] as const) {
    if (filter[key].length > 0) params.set(key, filter[key].join(","));
  }
  if (filter.minDifficulty !== undefined) params.set("minDifficulty", String(filter.minDifficulty));
  if (filter.maxDifficulty !== undefined) params.set("maxDifficulty", String(filter.maxDifficulty));
  if (filter.q) params.set("q", filter.q);
  return params;
}

/** A link to the same view with another page (or sort); the filter is kept. */
export function browserHref(
  path: string,
  state: Pick<BrowserState, "filter" | "sort">,
  page?: { after: string } | { before: string },
): string {
  const params = filterParams(state.filter);
  if (state.sort !== "newest") params.set("sort", state.sort);
  if (page && "after" in page) params.set("after", page.after);
  if (page && "before" in page) params.set("before", page.before);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

import type { Page } from "@playwright/test";

/** A row of the run overview's generation timeline. */
export function generationRow(page: Page, index: number) {
  return page
    .getByRole("table", { name: "Generations, newest first" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: String(index), exact: true }) });
}

/** The id of the task keyboard review mode shows ("Task 123"). */
export async function reviewModeTaskId(page: Page): Promise<number> {
  const label = await page
    .getByRole("dialog")
    .getByRole("article", { name: /^Task \d+$/ })
    .getAttribute("aria-label");
  return Number(label!.replace("Task ", ""));
}

/** What a page's HTML (or RSC payload) holds when a server action is bound anywhere on it. */
export const SERVER_ACTION_MARKERS = /\$ACTION_ID_|\$ACTION_REF_|\$ACTION_KEY|\$ACTION_\d/;

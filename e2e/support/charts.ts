import { expect, type Locator, type Page } from "@playwright/test";

/** A chart's "Show data" table, opened: the exact numbers the chart draws. */
export async function chartData(page: Page, chart: string): Promise<Locator> {
  const region = page.getByRole("region", { name: chart, exact: true });
  const table = region.getByRole("table");
  if (!(await table.isVisible())) await region.getByText("Show data").click();
  await expect(table).toBeVisible();
  return table;
}

/** The cells of the row whose header cell is `rowHeader`. */
export async function cellsOf(table: Locator, rowHeader: string): Promise<string[]> {
  const row = table
    .getByRole("row")
    .filter({ has: table.page().getByRole("rowheader", { name: rowHeader, exact: true }) });
  return row.getByRole("cell").allInnerTexts();
}

export async function columnsOf(table: Locator): Promise<string[]> {
  return table.getByRole("columnheader").allInnerTexts();
}

export const percent = (successes: number, attempts: number) =>
  `${((successes / attempts) * 100).toFixed(1)}%`;

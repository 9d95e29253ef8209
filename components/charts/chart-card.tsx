import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { RowTh, TableHead, Td, Th, Tr } from "@/components/ui/table";

export type DataTableProps = {
  caption: string;
  columns: string[];
  /** First cell of each row is its header (e.g. the generation); values are preformatted text. */
  rows: string[][];
};

/**
 * The exact numbers behind a chart, for screen readers, copy-paste and tests. Wide tables scroll
 * sideways, so the scroll box is focusable: keyboard users can scroll it too.
 */
export function DataTable({ caption, columns, rows }: DataTableProps) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="mt-2 overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-accent"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead>
          {columns.map((column, i) => (
            <Th key={column} align={i === 0 ? "left" : "right"}>
              {column}
            </Th>
          ))}
        </TableHead>
        <tbody>
          {rows.map(([head, ...cells]) => (
            <Tr key={head}>
              <RowTh className="tabular-nums">{head}</RowTh>
              {cells.map((cell, i) => (
                <Td key={columns[i + 1]} align="right" className="tabular-nums">
                  {cell}
                </Td>
              ))}
            </Tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A chart's frame: heading, one line of what it shows, the chart (or its empty state) and a
 * "Show data" disclosure with the numbers as a table.
 */
export function ChartCard({
  id,
  title,
  description,
  isEmpty,
  emptyTitle,
  emptyText,
  controls,
  data,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  isEmpty: boolean;
  emptyTitle: string;
  emptyText: ReactNode;
  controls?: ReactNode;
  data?: DataTableProps;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 space-y-3 rounded-lg border border-border p-4"
    >
      <div className="space-y-1">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted">{description}</p>
      </div>
      {controls}
      {isEmpty ? (
        <EmptyState title={emptyTitle}>{emptyText}</EmptyState>
      ) : (
        <>
          {children}
          {data && (
            <details className="text-sm">
              <summary className="cursor-pointer text-muted hover:text-fg">Show data</summary>
              <DataTable {...data} />
            </details>
          )}
        </>
      )}
    </section>
  );
}

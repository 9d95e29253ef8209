import type { ComponentPropsWithoutRef, ReactNode } from "react";

/**
 * Table primitives: one place for the dense, bordered look every data table shares. They pass
 * props through, so callers keep full control of semantics (scope, aria-sort, colSpan…).
 */

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(" ");

export function Table({
  caption,
  children,
  className,
}: {
  /** Read by screen readers; tables always say what they list. */
  caption: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cx("overflow-x-auto rounded-lg border border-border", className)}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className="bg-panel text-xs text-muted">
      <tr>{children}</tr>
    </thead>
  );
}

type Align = { align?: "left" | "right" | "center" };
const alignClass = { left: "", right: "text-right", center: "text-center" } as const;

export function Th({
  align = "left",
  className,
  ...props
}: ComponentPropsWithoutRef<"th"> & Align) {
  return (
    <th
      scope="col"
      className={cx("px-3 py-2 font-medium", alignClass[align], className)}
      {...props}
    />
  );
}

export function Tr({ className, ...props }: ComponentPropsWithoutRef<"tr">) {
  return <tr className={cx("border-t border-border align-top", className)} {...props} />;
}

export function Td({
  align = "left",
  className,
  ...props
}: ComponentPropsWithoutRef<"td"> & Align) {
  return <td className={cx("px-3 py-1.5", alignClass[align], className)} {...props} />;
}

/** A row header cell (the row's identity, e.g. a generation index). */
export function RowTh({
  align = "left",
  className,
  ...props
}: ComponentPropsWithoutRef<"th"> & Align) {
  return (
    <th
      scope="row"
      className={cx("px-3 py-1.5 font-medium", alignClass[align], className)}
      {...props}
    />
  );
}

export { cx };

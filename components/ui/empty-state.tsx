import type { ReactNode } from "react";

/** What a list or chart shows when it has nothing yet: say why, and what makes it fill up. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-border bg-panel p-8 text-center">
      <h2 className="text-base font-medium">{title}</h2>
      {children ? <div className="mt-2 text-sm text-muted">{children}</div> : null}
    </div>
  );
}

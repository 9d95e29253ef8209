import type { ReactNode } from "react";

/** A pulsing placeholder block; loading.tsx files compose these into the page's shape. */
export function Skeleton({ className }: { className: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-panel ${className}`} />;
}

/** The accessible wrapper every loading state uses, so tests and screen readers see one status. */
export function LoadingRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className="space-y-4">
      {children}
    </div>
  );
}

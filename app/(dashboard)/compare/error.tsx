"use client";

import { ErrorState, type ErrorBoundaryProps } from "@/components/ui/error-state";

/** A failed comparison keeps the picker's way out: back to no selection. */
export default function CompareError(props: ErrorBoundaryProps) {
  return (
    <ErrorState
      {...props}
      title="The comparison could not be shown"
      what="Something went wrong while reading the runs"
      exit={{ href: "/compare", label: "Start over" }}
    />
  );
}

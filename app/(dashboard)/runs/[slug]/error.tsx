"use client";

import { ErrorState, type ErrorBoundaryProps } from "@/components/ui/error-state";

export default function RunError(props: ErrorBoundaryProps) {
  return (
    <ErrorState
      {...props}
      title="This run could not be shown"
      what="Something went wrong while reading the run"
    />
  );
}

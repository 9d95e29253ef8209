"use client";

import { ErrorState, type ErrorBoundaryProps } from "@/components/ui/error-state";

export default function GenerationError(props: ErrorBoundaryProps) {
  return (
    <ErrorState
      {...props}
      title="This generation could not be shown"
      what="Reading its tasks failed; the server log has the details"
    />
  );
}

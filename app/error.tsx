"use client";

import { ErrorState, type ErrorBoundaryProps } from "@/components/ui/error-state";

export default function ErrorPage(props: ErrorBoundaryProps) {
  return (
    <main className="mx-auto max-w-7xl px-6 py-8">
      <ErrorState
        {...props}
        title="Something went wrong"
        what="The page could not be shown"
        exit={null}
      />
    </main>
  );
}

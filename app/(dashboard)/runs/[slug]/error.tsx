"use client";

import Link from "next/link";

/** A run view that failed to render offers a retry and the way back to the runs. */
export default function RunError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div role="alert" className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">This run could not be shown</h1>
      <p className="text-muted">
        Something went wrong while reading the run
        {error.digest ? ` (reference ${error.digest})` : ""}.
      </p>
      <div className="flex justify-center gap-3 text-sm">
        <button
          type="button"
          onClick={reset}
          className="rounded-md bg-accent px-3 py-1.5 text-accent-fg"
        >
          Try again
        </button>
        <Link href="/" className="rounded-md border border-border px-3 py-1.5">
          Back to runs
        </Link>
      </div>
    </div>
  );
}

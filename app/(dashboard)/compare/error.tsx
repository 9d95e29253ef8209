"use client";

import Link from "next/link";

/** A failed comparison keeps the picker's way out: back to no selection, or to the runs. */
export default function CompareError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div role="alert" className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">The comparison could not be shown</h1>
      <p className="text-muted">
        Something went wrong while reading the runs
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
        <Link href="/compare" className="rounded-md border border-border px-3 py-1.5">
          Start over
        </Link>
      </div>
    </div>
  );
}

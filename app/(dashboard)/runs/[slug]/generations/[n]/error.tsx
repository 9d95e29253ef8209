"use client";

import Link from "next/link";

/** A generation that fails to load keeps the rest of the app usable and says what to try. */
export default function GenerationError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div role="alert" className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">This generation could not be shown</h1>
      <p className="text-muted">
        Reading its tasks failed{error.digest ? ` (reference ${error.digest})` : ""}. The server log
        has the details.
      </p>
      <div className="flex justify-center gap-3">
        <button
          type="button"
          onClick={reset}
          className="rounded-md bg-accent px-3 py-1.5 text-sm text-accent-fg"
        >
          Try again
        </button>
        <Link href="/" className="rounded-md border border-border px-3 py-1.5 text-sm">
          Back to runs
        </Link>
      </div>
    </div>
  );
}

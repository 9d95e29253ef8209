"use client";

import Link from "next/link";
import { buttonClass } from "./button";

export type ErrorBoundaryProps = { error: Error & { digest?: string }; reset: () => void };

/**
 * What every error.tsx shows: what failed, the digest that finds it in the server log (never the
 * message: it may hold internals), a retry, and a way out.
 */
export function ErrorState({
  title,
  what,
  error,
  reset,
  exit = { href: "/", label: "Back to runs" },
}: ErrorBoundaryProps & {
  title: string;
  /** "Something went wrong while reading the run", without the final period. */
  what: string;
  exit?: { href: string; label: string } | null;
}) {
  return (
    <div role="alert" className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted">
        {what}
        {error.digest ? ` (reference ${error.digest})` : ""}.
      </p>
      <div className="flex justify-center gap-3">
        <button type="button" onClick={reset} className={buttonClass()}>
          Try again
        </button>
        {exit ? (
          <Link href={exit.href} className={buttonClass({ variant: "secondary" })}>
            {exit.label}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

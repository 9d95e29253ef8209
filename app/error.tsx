"use client";

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <main role="alert" className="mx-auto max-w-7xl space-y-3 px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-muted">
        The page could not be shown{error.digest ? ` (reference ${error.digest})` : ""}.
      </p>
      <button
        type="button"
        onClick={reset}
        className="rounded-md bg-accent px-3 py-1.5 text-sm text-accent-fg"
      >
        Try again
      </button>
    </main>
  );
}

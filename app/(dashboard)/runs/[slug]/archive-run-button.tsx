"use client";

import { startTransition, useActionState, useState } from "react";
import type { ActionState } from "@/lib/actions/safe-action";
import { archiveRunAction } from "../../actions";

/** Archiving hides a run from the list; it asks once more before doing it. */
export function ArchiveRunButton({ runId }: { runId: number }) {
  const [isConfirming, setConfirming] = useState(false);
  const [state, dispatch, isPending] = useActionState<ActionState<{ message?: string }>, void>(
    () => archiveRunAction(null, { runId }),
    null,
  );
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex gap-2">
        {isConfirming ? (
          <>
            <button
              type="button"
              disabled={isPending}
              onClick={() => startTransition(() => dispatch())}
              className="rounded-md border border-red-600/40 px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-600/10 disabled:opacity-50 dark:text-red-300"
            >
              Archive this run
            </button>
            <button
              type="button"
              disabled={isPending}
              onClick={() => setConfirming(false)}
              className="rounded-md border border-border px-2.5 py-1 text-xs hover:bg-panel"
            >
              Keep it
            </button>
          </>
        ) : (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="rounded-md border border-border px-2.5 py-1 text-xs text-muted hover:bg-panel hover:text-fg"
          >
            Archive run
          </button>
        )}
      </div>
      <p role="status" aria-live="polite" className="text-xs">
        {isPending ? (
          <span className="text-muted">Archiving…</span>
        ) : state && !state.ok ? (
          <span className="text-red-700 dark:text-red-300">{state.error}</span>
        ) : null}
      </p>
    </div>
  );
}

"use client";

import { startTransition, useActionState } from "react";
import { buttonClass } from "@/components/ui/button";
import type { ActionState } from "@/lib/actions/safe-action";
import { deleteConnectionAction } from "./actions";

export function DeleteConnectionButton({ id, name }: { id: number; name: string }) {
  const [state, dispatch, isPending] = useActionState<ActionState, void>(
    () => deleteConnectionAction(null, { id }),
    null,
  );
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        disabled={isPending}
        aria-label={`Delete connection ${name}`}
        onClick={() => startTransition(() => dispatch())}
        className={buttonClass({ variant: "danger", size: "sm" })}
      >
        Delete
      </button>
      {state && !state.ok ? (
        <p role="status" className="text-xs text-red-700 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

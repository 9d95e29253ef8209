"use client";

import { useRouter } from "next/navigation";
import { useCallback, useState, useTransition } from "react";
import { reviewTasksAction } from "@/app/(dashboard)/actions";
import type { TaskFilter } from "@/lib/validations/task-filter";

export type Decision = "APPROVED" | "REJECTED" | "PENDING";
export type ReviewTarget = { taskIds: number[] } | { filter: TaskFilter };
export type ReviewStatusLine = { tone: "ok" | "error"; text: string };

/**
 * Sends review decisions through the review action and says what happened in one status line.
 * A refusal because the review closed meanwhile is spelled out, never shown as success; after a
 * decision the page's rows and counts are read again.
 */
export function useReviewDecisions({
  runId,
  generationIndex,
}: {
  runId: number;
  generationIndex: number;
}) {
  const router = useRouter();
  const [status, setStatus] = useState<ReviewStatusLine | null>(null);
  const [isSending, setSending] = useState(false);
  const [isRefreshing, startRefresh] = useTransition();

  const decide = useCallback(
    async (target: ReviewTarget, decision: Decision, note?: string): Promise<boolean> => {
      setSending(true);
      try {
        const result = await reviewTasksAction(null, {
          runId,
          generationIndex,
          decision,
          note: note?.trim() || undefined,
          ...target,
        });
        if (result.ok) {
          setStatus({ tone: "ok", text: result.message });
          startRefresh(() => router.refresh());
          return true;
        }
        setStatus({
          tone: "error",
          text:
            result.code === "CONFLICT"
              ? `Review of generation ${generationIndex} was closed meanwhile: nothing was changed. Reload the page to see its final decisions.`
              : result.fieldErrors
                ? `${result.error} ${Object.values(result.fieldErrors).flat().join(" ")}`
                : result.error,
        });
        return false;
      } catch {
        setStatus({
          tone: "error",
          text: "The decision could not be sent (is the server reachable?). Nothing was changed.",
        });
        return false;
      } finally {
        setSending(false);
      }
    },
    [runId, generationIndex, router],
  );

  /** isSending: a decision is on its way; isBusy: or the page is still reading the result. */
  return { decide, status, setStatus, isSending, isBusy: isSending || isRefreshing };
}

export function StatusLine({
  status,
  className,
}: {
  status: ReviewStatusLine | null;
  className?: string;
}) {
  return (
    <p role="status" aria-live="polite" className={`min-h-5 text-sm ${className ?? ""}`}>
      {status ? (
        <span
          className={
            status.tone === "ok"
              ? "text-emerald-700 dark:text-emerald-300"
              : "font-medium text-red-700 dark:text-red-300"
          }
        >
          {status.text}
        </span>
      ) : null}
    </p>
  );
}

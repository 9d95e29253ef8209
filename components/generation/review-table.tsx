"use client";

import { useId, useState, type FormEvent, type ReactNode } from "react";
import { runPaths } from "@/components/run/view-context";
import { buttonClass } from "@/components/ui/button";
import { Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import type { GenerationTaskRow } from "@/lib/db/queries/generation-tasks";
import type { TaskFilter } from "@/lib/validations/task-filter";
import { ModalDialog } from "./modal-dialog";
import { ReviewMode } from "./review-mode";
import { TaskCells, TaskHeaderCells } from "./task-cells";
import {
  StatusLine,
  useReviewDecisions,
  type Decision,
  type ReviewTarget,
} from "./use-review-decisions";

export type ReviewTableProps = {
  runId: number;
  generationIndex: number;
  basePath: string;
  rows: GenerationTaskRow[];
  filter: TaskFilter;
  isFiltered: boolean;
  /** Tasks the current filter matches (all pages). */
  matching: number;
  /** Where the review mode reads the following pages: the tasks API with this view's params. */
  pagesUrl: string;
  nextCursor: string | null;
  /** Shown instead of the table when this page has no rows (the status line stays). */
  emptyState: ReactNode;
};

/** Fixed locale: the server and every browser render the same digits (no hydration drift). */
const formatCount = (count: number) => count.toLocaleString("en-US");
const plural = (count: number, word: string) =>
  `${formatCount(count)} ${word}${count === 1 ? "" : "s"}`;

/** What a confirmation dialog is about to do. */
type Pending = {
  target: ReviewTarget;
  decision: Exclude<Decision, "PENDING">;
  count: number;
  /** "this filter" dialogs state the count as a question; selections and single tasks don't need to. */
  scope: "task" | "selection" | "filter";
};

/**
 * The task table of a generation whose review is open: per-row Approve / Reject, a selection for
 * bulk decisions, "act on everything matching the filter" behind a confirmation that states the
 * count, and the keyboard review mode.
 */
export function ReviewTable(props: ReviewTableProps) {
  const { rows, generationIndex } = props;
  const { decide, status, isBusy } = useReviewDecisions(props);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [isReviewing, setReviewing] = useState(false);

  const reviewable = rows.filter((row) => row.validationStatus === "VALID");
  const selectedIds = reviewable.filter((row) => selected.has(row.id)).map((row) => row.id);
  const isAllSelected = reviewable.length > 0 && selectedIds.length === reviewable.length;

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function approveNow(target: ReviewTarget) {
    if (await decide(target, "APPROVED")) setSelected(new Set());
  }

  return (
    <div className="space-y-3">
      <div
        role="toolbar"
        aria-label="Review"
        className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-panel px-3 py-2 text-sm"
      >
        <button
          type="button"
          className={buttonClass({ size: "sm" })}
          onClick={() => setReviewing(true)}
          disabled={rows.length === 0}
          aria-keyshortcuts="j k a r u ?"
        >
          Review
        </button>
        <span aria-hidden="true" className="mx-1 h-5 border-l border-border" />
        <span className="text-muted tabular-nums">
          {plural(selectedIds.length, "selected task")}
        </span>
        <button
          type="button"
          className={buttonClass({ variant: "secondary", size: "sm" })}
          disabled={selectedIds.length === 0 || isBusy}
          onClick={() => approveNow({ taskIds: selectedIds })}
        >
          Approve selected
        </button>
        <button
          type="button"
          className={buttonClass({ variant: "danger", size: "sm" })}
          disabled={selectedIds.length === 0 || isBusy}
          onClick={() =>
            setPending({
              target: { taskIds: selectedIds },
              decision: "REJECTED",
              count: selectedIds.length,
              scope: "selection",
            })
          }
        >
          Reject selected
        </button>
        <span aria-hidden="true" className="mx-1 h-5 border-l border-border" />
        <button
          type="button"
          className={buttonClass({ variant: "secondary", size: "sm" })}
          disabled={props.matching === 0 || isBusy}
          onClick={() =>
            setPending({
              target: { filter: props.filter },
              decision: "APPROVED",
              count: props.matching,
              scope: "filter",
            })
          }
        >
          Approve all {formatCount(props.matching)}{" "}
          {props.isFiltered ? "matching" : "in generation"}
        </button>
        <button
          type="button"
          className={buttonClass({ variant: "danger", size: "sm" })}
          disabled={props.matching === 0 || isBusy}
          onClick={() =>
            setPending({
              target: { filter: props.filter },
              decision: "REJECTED",
              count: props.matching,
              scope: "filter",
            })
          }
        >
          Reject all {formatCount(props.matching)} {props.isFiltered ? "matching" : "in generation"}
        </button>
      </div>
      <StatusLine status={isReviewing ? null : status} />

      {rows.length === 0 ? (
        props.emptyState
      ) : (
        <Table caption={`Tasks of generation ${generationIndex}`}>
          <TableHead>
            <Th className="w-8">
              <input
                type="checkbox"
                aria-label="Select every reviewable task on this page"
                checked={isAllSelected}
                disabled={reviewable.length === 0}
                onChange={() =>
                  setSelected(isAllSelected ? new Set() : new Set(reviewable.map((row) => row.id)))
                }
              />
            </Th>
            <TaskHeaderCells />
            <Th>
              <span className="sr-only">Decide</span>
            </Th>
          </TableHead>
          <tbody>
            {rows.map((task) => {
              const isReviewable = task.validationStatus === "VALID";
              return (
                <Tr key={task.id}>
                  <Td>
                    {isReviewable ? (
                      <input
                        type="checkbox"
                        aria-label={`Select task ${task.id}`}
                        checked={selected.has(task.id)}
                        onChange={() => toggle(task.id)}
                      />
                    ) : null}
                  </Td>
                  <TaskCells task={task} taskHref={runPaths.task(props.basePath, task.id)} />
                  <Td className="whitespace-nowrap">
                    {isReviewable ? (
                      <span className="flex gap-1">
                        <button
                          type="button"
                          aria-describedby={`task-${task.id}`}
                          className={buttonClass({ variant: "secondary", size: "sm" })}
                          disabled={isBusy || task.reviewStatus === "APPROVED"}
                          onClick={() => approveNow({ taskIds: [task.id] })}
                        >
                          Approve
                        </button>
                        <button
                          type="button"
                          aria-describedby={`task-${task.id}`}
                          className={buttonClass({ variant: "danger", size: "sm" })}
                          disabled={isBusy}
                          onClick={() =>
                            setPending({
                              target: { taskIds: [task.id] },
                              decision: "REJECTED",
                              count: 1,
                              scope: "task",
                            })
                          }
                        >
                          Reject
                        </button>
                      </span>
                    ) : (
                      <span className="text-xs text-muted">not reviewable (invalid)</span>
                    )}
                  </Td>
                </Tr>
              );
            })}
          </tbody>
        </Table>
      )}

      <ConfirmDecisionDialog
        pending={pending}
        generationIndex={generationIndex}
        isFiltered={props.isFiltered}
        onCancel={() => setPending(null)}
        onConfirm={async (note) => {
          if (!pending) return;
          const target = pending.target;
          setPending(null);
          if (await decide(target, pending.decision, note)) setSelected(new Set());
        }}
      />
      {isReviewing ? (
        <ReviewMode
          rows={rows}
          nextCursor={props.nextCursor}
          pagesUrl={props.pagesUrl}
          basePath={props.basePath}
          generationIndex={generationIndex}
          runId={props.runId}
          onClose={() => setReviewing(false)}
        />
      ) : null}
    </div>
  );
}

function ConfirmDecisionDialog({
  pending,
  generationIndex,
  isFiltered,
  onCancel,
  onConfirm,
}: {
  pending: Pending | null;
  generationIndex: number;
  isFiltered: boolean;
  onCancel: () => void;
  onConfirm: (note: string) => void;
}) {
  const titleId = useId();
  const noteId = useId();
  const isReject = pending?.decision === "REJECTED";
  const verb = isReject ? "Reject" : "Approve";
  const tasks = pending ? plural(pending.count, "task") : "";
  const title = !pending
    ? ""
    : pending.scope === "filter"
      ? isFiltered
        ? `${verb} ${tasks} matching this filter?`
        : `${verb} all ${tasks} of generation ${generationIndex}?`
      : pending.scope === "selection"
        ? `${verb} the ${tasks} you selected?`
        : `${verb} this task?`;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onConfirm(String(new FormData(event.currentTarget).get("note") ?? ""));
  }
  return (
    <ModalDialog open={pending !== null} onClose={onCancel} labelledBy={titleId}>
      <form onSubmit={submit} className="space-y-4">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        {pending?.scope === "filter" ? (
          <p className="text-sm text-muted">
            Every task of generation {generationIndex} that the current filter matches, on every
            page, gets this decision. Invalid tasks are skipped.
          </p>
        ) : null}
        <div className="space-y-1">
          <label htmlFor={noteId} className="block text-sm font-medium">
            {isReject ? "Why reject? (note, required)" : "Note (optional)"}
          </label>
          <textarea
            id={noteId}
            name="note"
            rows={3}
            required={isReject}
            maxLength={2000}
            autoFocus
            className="w-full rounded-md border border-border bg-bg px-2 py-1 text-sm"
          />
        </div>
        <div className="flex justify-end gap-2">
          <button
            type="button"
            className={buttonClass({ variant: "secondary" })}
            onClick={onCancel}
          >
            Cancel
          </button>
          <button
            type="submit"
            className={buttonClass({ variant: isReject ? "danger" : "primary" })}
          >
            {verb} {tasks}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { runPaths } from "@/components/run/view-context";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import type { GenerationTaskPage, GenerationTaskRow } from "@/lib/db/queries/generation-tasks";
import { ModalDialog } from "./modal-dialog";
import { formatDifficulty, reviewTone, signalLabel, validationTone } from "./task-cells";
import { StatusLine, useReviewDecisions, type Decision } from "./use-review-decisions";

/** How close to the end of what is loaded the next page is fetched. */
const PRELOAD_AHEAD = 5;

const KEYS: [string, string][] = [
  ["j", "next task"],
  ["k", "previous task"],
  ["a", "approve (with the note, if you wrote one)"],
  ["r", "reject: write why, then Enter"],
  ["u", "undo the last decision"],
  ["?", "show or hide this help"],
  ["Esc", "leave the note field, or close review mode"],
];

const STILL_SAVING = {
  tone: "ok",
  text: "The last decision is still being saved; press the key again in a moment.",
} as const;

type Undo = { id: number; status: Decision; note: string | null };

/**
 * Review one task at a time from the keyboard. The tasks of the current page are already here; the
 * next page is fetched while the reviewer is still a few tasks away from its end, so moving on is
 * instant. Keys are ignored while typing in the note field.
 */
export function ReviewMode({
  runId,
  generationIndex,
  basePath,
  rows,
  nextCursor,
  pagesUrl,
  onClose,
}: {
  runId: number;
  generationIndex: number;
  basePath: string;
  rows: GenerationTaskRow[];
  nextCursor: string | null;
  pagesUrl: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const noteId = useId();
  const { decide, status, setStatus, isSending } = useReviewDecisions({ runId, generationIndex });
  const [tasks, setTasks] = useState(rows);
  const [cursor, setCursor] = useState(nextCursor);
  const loadingCursor = useRef<string | null>(null);
  const [position, setPosition] = useState(() => {
    const firstPending = rows.findIndex(
      (row) => row.reviewStatus === "PENDING" && row.validationStatus === "VALID",
    );
    return Math.max(firstPending, 0);
  });
  const [isRejecting, setRejecting] = useState(false);
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [undoStack, setUndoStack] = useState<Undo[]>([]);
  const cardRef = useRef<HTMLElement>(null);
  const noteRef = useRef<HTMLInputElement>(null);
  const task = tasks[position];

  useEffect(() => {
    if (!cursor || loadingCursor.current === cursor) return;
    if (position < tasks.length - PRELOAD_AHEAD) return;
    // A ref, not state: the request outlives this effect run (moving on must not cancel it).
    loadingCursor.current = cursor;
    const separator = pagesUrl.includes("?") ? "&" : "?";
    fetch(`${pagesUrl}${separator}after=${encodeURIComponent(cursor)}`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const page = (await response.json()) as GenerationTaskPage;
        setTasks((current) => [...current, ...page.rows]);
        setCursor(page.next);
      })
      .catch((error: unknown) => {
        setStatus({
          tone: "error",
          text: `The next tasks could not be loaded (${String(error)}).`,
        });
        setCursor(null);
      })
      .finally(() => {
        loadingCursor.current = null;
      });
  }, [cursor, position, tasks.length, pagesUrl, setStatus]);

  function move(step: number) {
    const next = position + step;
    if (next < 0) return setStatus({ tone: "ok", text: "This is the first task." });
    if (next >= tasks.length) {
      return setStatus({
        tone: "ok",
        text: loadingCursor.current
          ? "Loading the next tasks…"
          : "That was the last task of this view.",
      });
    }
    setPosition(next);
    setRejecting(false);
  }

  function updateTask(id: number, status: Decision, note: string | null) {
    setTasks((current) =>
      current.map((row) =>
        row.id === id
          ? {
              ...row,
              reviewStatus: status,
              reviewNote: note,
              reviewer: status === "PENDING" ? null : row.reviewer,
            }
          : row,
      ),
    );
  }

  async function decideCurrent(decision: "APPROVED" | "REJECTED") {
    if (!task) return;
    if (isSending) return setStatus(STILL_SAVING);
    if (task.validationStatus !== "VALID") {
      return setStatus({
        tone: "error",
        text: `Task ${task.id} is invalid: it cannot be reviewed.`,
      });
    }
    const note = noteRef.current?.value.trim() ?? "";
    if (decision === "REJECTED" && !note) {
      setRejecting(true);
      noteRef.current?.focus();
      return setStatus({ tone: "ok", text: "Write why you reject this task, then press Enter." });
    }
    const previous: Undo = { id: task.id, status: task.reviewStatus, note: task.reviewNote };
    if (await decide({ taskIds: [task.id] }, decision, note)) {
      updateTask(task.id, decision, note || null);
      setUndoStack((stack) => [...stack, previous]);
      if (noteRef.current) noteRef.current.value = "";
      setRejecting(false);
      cardRef.current?.focus();
      if (position < tasks.length - 1) setPosition(position + 1);
    }
  }

  async function undo() {
    const last = undoStack.at(-1);
    if (!last) return setStatus({ tone: "ok", text: "Nothing to undo." });
    if (isSending) return setStatus(STILL_SAVING);
    if (await decide({ taskIds: [last.id] }, last.status, last.note ?? undefined)) {
      updateTask(last.id, last.status, last.note);
      setUndoStack((stack) => stack.slice(0, -1));
      const index = tasks.findIndex((row) => row.id === last.id);
      if (index >= 0) setPosition(index);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    const target = event.target as HTMLElement;
    if (target === noteRef.current) {
      if (event.key === "Enter") {
        event.preventDefault();
        void decideCurrent(isRejecting ? "REJECTED" : "APPROVED");
      }
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
    if (target.closest("input, textarea, select, [contenteditable=true]")) return;
    const actions: Record<string, () => void> = {
      j: () => move(1),
      k: () => move(-1),
      a: () => void decideCurrent("APPROVED"),
      r: () => void decideCurrent("REJECTED"),
      u: () => void undo(),
      "?": () => setHelpOpen((open) => !open),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  return (
    <ModalDialog
      open
      onClose={onClose}
      labelledBy={titleId}
      initialFocus={cardRef}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // Esc in the note field leaves the field (and the rejection) instead of closing review mode.
        if (document.activeElement === noteRef.current) {
          event.preventDefault();
          setRejecting(false);
          cardRef.current?.focus();
        }
      }}
      className="w-full max-w-2xl"
    >
      <div className="space-y-4">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={titleId} className="text-base font-semibold">
            Review mode: generation {generationIndex}
          </h2>
          <p className="text-xs text-muted tabular-nums">
            {task ? `${position + 1} of ${tasks.length}${cursor ? "+" : ""} loaded` : "No tasks"}
          </p>
        </div>

        {task ? (
          <article
            ref={cardRef}
            tabIndex={-1}
            aria-label={`Task ${task.id}`}
            className="space-y-3 rounded-md border border-border p-4 focus-visible:outline-2 focus-visible:outline-accent"
          >
            <p className="text-sm whitespace-pre-wrap">{task.instruction}</p>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
              <Fact term="Task">
                <Link href={runPaths.task(basePath, task.id)} className="hover:underline">
                  {task.id}
                </Link>
              </Fact>
              <Fact term="Skill">
                {task.skill} · level {task.level}
              </Fact>
              <Fact term="Difficulty est. / meas.">
                {formatDifficulty(task.estimatedDifficulty)} /{" "}
                {formatDifficulty(task.measuredDifficulty)}
              </Fact>
              <Fact term="Signal">{signalLabel(task.signalKind)}</Fact>
              <Fact term="Parent">
                {task.parentTaskId ? (
                  <Link
                    href={runPaths.task(basePath, task.parentTaskId)}
                    className="hover:underline"
                  >
                    {task.parentTaskId}
                  </Link>
                ) : (
                  "—"
                )}
              </Fact>
              <Fact term="Origin">{task.origin.toLowerCase()}</Fact>
              <Fact term="Validation">
                <Badge tone={validationTone[task.validationStatus]}>
                  {task.validationStatus.toLowerCase()}
                </Badge>
                {task.validationReason ? (
                  <span className="ml-1 text-xs text-muted">{task.validationReason}</span>
                ) : null}
              </Fact>
              <Fact term="Decision">
                <Badge tone={reviewTone[task.reviewStatus]}>
                  {task.reviewStatus.toLowerCase()}
                </Badge>
                {task.reviewNote ? (
                  <span className="ml-1 text-xs text-muted">“{task.reviewNote}”</span>
                ) : null}
              </Fact>
            </dl>
          </article>
        ) : (
          <p className="text-sm text-muted">There is nothing to review in this view.</p>
        )}

        <div className="space-y-1">
          <label htmlFor={noteId} className="block text-sm font-medium">
            {isRejecting ? "Why reject? Enter confirms, Esc cancels" : "Note (optional)"}
          </label>
          <input
            id={noteId}
            ref={noteRef}
            type="text"
            maxLength={2000}
            aria-invalid={isRejecting && status?.tone === "error" ? true : undefined}
            className={`w-full rounded-md border bg-bg px-2 py-1 text-sm ${
              isRejecting ? "border-red-600/60" : "border-border"
            }`}
          />
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={buttonClass({ variant: "secondary", size: "sm" })}
            onClick={() => move(-1)}
          >
            Previous task
          </button>
          <button
            type="button"
            className={buttonClass({ variant: "secondary", size: "sm" })}
            onClick={() => move(1)}
          >
            Next task
          </button>
          <button
            type="button"
            className={buttonClass({ size: "sm" })}
            disabled={isSending || !task}
            onClick={() => void decideCurrent("APPROVED")}
            aria-keyshortcuts="a"
          >
            Approve
          </button>
          <button
            type="button"
            className={buttonClass({ variant: "danger", size: "sm" })}
            disabled={isSending || !task}
            onClick={() => void decideCurrent("REJECTED")}
            aria-keyshortcuts="r"
          >
            Reject
          </button>
          <button
            type="button"
            className={buttonClass({ variant: "secondary", size: "sm" })}
            disabled={isSending || undoStack.length === 0}
            onClick={() => void undo()}
            aria-keyshortcuts="u"
          >
            Undo
          </button>
          <button
            type="button"
            className={buttonClass({ variant: "ghost", size: "sm" })}
            aria-expanded={isHelpOpen}
            onClick={() => setHelpOpen((open) => !open)}
            aria-keyshortcuts="?"
          >
            Keyboard help
          </button>
          <button
            type="button"
            className={`${buttonClass({ variant: "ghost", size: "sm" })} ml-auto`}
            onClick={onClose}
          >
            Close
          </button>
        </div>

        <StatusLine status={status} />

        {isHelpOpen ? (
          <section
            aria-label="Keyboard shortcuts"
            className="rounded-md border border-border bg-panel p-3"
          >
            <h3 className="mb-2 text-sm font-semibold">Keyboard shortcuts</h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {KEYS.map(([key, meaning]) => (
                <div key={key} className="contents">
                  <dt>
                    <kbd className="rounded border border-border px-1.5 font-mono text-xs">
                      {key}
                    </kbd>
                  </dt>
                  <dd className="text-muted">{meaning}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
      </div>
    </ModalDialog>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

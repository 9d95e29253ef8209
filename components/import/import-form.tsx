"use client";

import { useActionState, useId } from "react";
import { buttonClass } from "@/components/ui/button";
import type { ActionResult, ActionState } from "@/lib/actions/safe-action";
import type { ImportSummary } from "@/lib/db/mutations/import-tasks";

type ImportAction = (
  prevState: unknown,
  input?: FormData,
) => Promise<ActionResult<{ summary: ImportSummary }>>;

export type ImportFormProps = { slug: string; action: ImportAction };

function describeDuplicate(duplicate: ImportSummary["duplicates"][number]): string {
  return "firstLine" in duplicate
    ? `line ${duplicate.line}: same task as line ${duplicate.firstLine}`
    : `line ${duplicate.line}: the run already has this task (task #${duplicate.taskId})`;
}

/** Upload of seed tasks: every bad line is listed with its number, and nothing is written then. */
export function ImportForm({ slug, action }: ImportFormProps) {
  const id = useId();
  const [state, formAction, isPending] = useActionState<
    ActionState<{ summary: ImportSummary }>,
    FormData
  >(action, null);
  const summary = state?.ok ? state.summary : null;
  const fieldErrors = state && !state.ok ? state.fieldErrors : undefined;

  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="slug" value={slug} />
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-file`} className="text-sm font-medium">
            Tasks file
          </label>
          <input
            id={`${id}-file`}
            name="file"
            type="file"
            accept=".jsonl,.ndjson,.json,.csv,application/x-ndjson,text/csv"
            required
            aria-describedby={fieldErrors?.file ? `${id}-file-error` : undefined}
            className="text-sm"
          />
          {fieldErrors?.file && (
            <p id={`${id}-file-error`} className="text-xs text-red-700 dark:text-red-300">
              {fieldErrors.file.join(" ")}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-format`} className="text-sm font-medium">
            Format
          </label>
          <select
            id={`${id}-format`}
            name="format"
            defaultValue="auto"
            className="rounded-md border border-border bg-bg px-2 py-1 text-sm"
          >
            <option value="auto">From the file name</option>
            <option value="jsonl">JSONL</option>
            <option value="csv">CSV</option>
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="isDryRun" />
          Check only (dry run)
        </label>
        <button type="submit" className={buttonClass()} disabled={isPending}>
          {isPending ? "Importing…" : "Import"}
        </button>
      </div>

      <div role="status" aria-live="polite" className="space-y-2 text-sm">
        {state && !state.ok && !fieldErrors && (
          <p className="text-red-700 dark:text-red-300">{state.error}</p>
        )}
        {summary && summary.errors.length > 0 && (
          <p className="font-medium text-red-700 dark:text-red-300">
            Nothing was imported: {summary.errors.length}{" "}
            {summary.errors.length === 1 ? "problem" : "problems"} to fix.
          </p>
        )}
        {summary && summary.errors.length === 0 && (
          <p className="font-medium text-emerald-700 dark:text-emerald-300">
            {summary.isDryRun
              ? `The file is valid: ${summary.imported} tasks would be imported.`
              : `Imported ${summary.imported} tasks.`}
            {summary.duplicates.length > 0 &&
              ` ${summary.duplicates.length} duplicates were skipped.`}
          </p>
        )}
      </div>
      {summary && summary.errors.length > 0 && (
        <ul
          aria-label="Import errors"
          className="max-h-96 space-y-1 overflow-auto rounded-md border border-red-600/30 p-3 font-mono text-xs"
        >
          {summary.errors.map((error, i) => (
            <li key={i}>
              {error.line > 0 ? `line ${error.line}: ${error.message}` : error.message}
            </li>
          ))}
        </ul>
      )}
      {summary && summary.duplicates.length > 0 && (
        <ul
          aria-label="Skipped duplicates"
          className="max-h-64 space-y-1 overflow-auto rounded-md border border-border p-3 font-mono text-xs text-muted"
        >
          {summary.duplicates.map((duplicate, i) => (
            <li key={i}>{describeDuplicate(duplicate)}</li>
          ))}
        </ul>
      )}
    </form>
  );
}

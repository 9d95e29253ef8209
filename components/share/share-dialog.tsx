"use client";

import { useActionState, useId, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import type { ActionState } from "@/lib/actions/safe-action";
import type { ShareLinkItem } from "@/lib/db/queries/share-links";
import { createShareLinkAction } from "./actions";
import { ShareLinksTable } from "./share-links-table";

const inputClass =
  "w-full rounded-md border border-border bg-bg px-2.5 py-1.5 text-sm outline-none focus:border-accent focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-600";

const expiryOptions = [
  { value: "", label: "Never" },
  { value: "1", label: "In 1 day" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
];

type CreateState = ActionState<{ path: string; linkId: number }>;

export function ShareDialog({
  runId,
  runName,
  links,
}: {
  runId: number;
  runName: string;
  links: ShareLinkItem[];
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [created, createAction, isCreating] = useActionState<CreateState, FormData>(
    createShareLinkAction,
    null,
  );
  // Keyed by link so a second link's status does not say the first one was copied.
  const [copied, setCopied] = useState<{ linkId: number; message: string } | null>(null);
  const urlInputRef = useRef<HTMLInputElement>(null);
  const createdUrl =
    created?.ok && typeof window !== "undefined"
      ? new URL(created.path, window.location.origin).toString()
      : null;
  const fieldErrors = created && !created.ok ? created.fieldErrors : undefined;

  async function copy() {
    if (!createdUrl || !created?.ok) return;
    const linkId = created.linkId;
    try {
      await navigator.clipboard.writeText(createdUrl);
      setCopied({ linkId, message: "Link copied to the clipboard." });
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): leave it one keypress away.
      urlInputRef.current?.select();
      setCopied({
        linkId,
        message: "Copying was blocked: the link is selected, press Ctrl+C (⌘C) to copy it.",
      });
    }
  }

  const status = isCreating
    ? "Creating link…"
    : created && !created.ok
      ? created.error
      : created?.ok && copied?.linkId === created.linkId
        ? copied.message
        : createdUrl
          ? "Link created. Copy it now: it is shown only once."
          : "";

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => dialogRef.current?.showModal()}
        className={buttonClass({ variant: "secondary", size: "sm" })}
      >
        Share
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        className="m-auto w-full max-w-2xl rounded-lg border border-border bg-bg p-0 text-fg shadow-xl backdrop:bg-black/40"
      >
        <div className="space-y-5 p-5">
          <div className="flex items-start justify-between gap-4">
            <div className="space-y-1">
              <h2 id={titleId} className="text-lg font-semibold">
                Share “{runName}”
              </h2>
              <p className="text-sm text-muted">
                Anyone with a link can view this run — overview, generations, tasks and trajectories
                — but cannot change anything. Revoke a link to close it.
              </p>
            </div>
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className={buttonClass({ variant: "ghost", size: "sm" })}
            >
              Close
            </button>
          </div>

          <form
            action={createAction}
            aria-label="New share link"
            className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
          >
            <input type="hidden" name="runId" value={runId} />
            <div className="space-y-1">
              <label htmlFor={`${titleId}-label`} className="block text-xs font-medium">
                Label (optional)
              </label>
              <input
                id={`${titleId}-label`}
                name="label"
                maxLength={80}
                placeholder="e.g. For the reading group"
                aria-invalid={Boolean(fieldErrors?.label)}
                aria-describedby={fieldErrors?.label ? `${titleId}-label-error` : undefined}
                className={inputClass}
              />
              {fieldErrors?.label && (
                <p id={`${titleId}-label-error`} className="text-xs text-red-700 dark:text-red-300">
                  {fieldErrors.label.join(" ")}
                </p>
              )}
            </div>
            <div className="space-y-1">
              <label htmlFor={`${titleId}-expiry`} className="block text-xs font-medium">
                Expires
              </label>
              <select
                id={`${titleId}-expiry`}
                name="expiresInDays"
                defaultValue=""
                aria-invalid={Boolean(fieldErrors?.expiresInDays)}
                className={inputClass}
              >
                {expiryOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={isCreating} className={buttonClass()}>
              Create link
            </button>
          </form>

          {createdUrl && (
            <div className="space-y-1 rounded-md border border-border bg-panel p-3">
              <label htmlFor={`${titleId}-url`} className="block text-xs font-medium">
                New share link (shown only once)
              </label>
              <div className="flex gap-2">
                <input
                  id={`${titleId}-url`}
                  ref={urlInputRef}
                  readOnly
                  value={createdUrl}
                  onFocus={(event) => event.currentTarget.select()}
                  className={`${inputClass} font-mono text-xs`}
                />
                <button
                  type="button"
                  onClick={() => void copy()}
                  className={buttonClass({ variant: "secondary" })}
                >
                  Copy
                </button>
              </div>
            </div>
          )}

          <p role="status" aria-live="polite" className="min-h-5 text-sm">
            {created && !created.ok && !isCreating ? (
              <span className="text-red-700 dark:text-red-300">{status}</span>
            ) : (
              status
            )}
          </p>

          <ShareLinksTable runId={runId} links={links} />
        </div>
      </dialog>
    </>
  );
}

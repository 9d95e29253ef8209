"use client";

import { startTransition, useActionState, useId, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { RowTh, Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import type { ActionState } from "@/lib/actions/safe-action";
import type { ShareLinkItem, ShareLinkStatus } from "@/lib/db/queries/share-links";
import { revokeShareLinkAction } from "./actions";

const statusTone: Record<ShareLinkStatus, BadgeTone> = {
  active: "good",
  expired: "warn",
  revoked: "neutral",
};

/** UTC, minute precision: identical on the server and in the browser. */
function formatTime(iso: string): string {
  return iso.slice(0, 16).replace("T", " ");
}

const nameOf = (link: ShareLinkItem) => link.label ?? `link #${link.id}`;

/**
 * The run's links with a Revoke button on each active one. Revoking cannot be undone (a new link
 * has a new token), so it asks once more. Its state lives here, not in the row: a revoked row loses
 * its buttons, and the outcome must still be announced.
 */
export function ShareLinksTable({ runId, links }: { runId: number; links: ShareLinkItem[] }) {
  const headingId = useId();
  const [confirmingId, setConfirmingId] = useState<number | null>(null);
  const [state, revoke, isRevoking] = useActionState<
    ActionState<{ message?: string }>,
    ShareLinkItem
  >(async (_previous, link) => {
    const result = await revokeShareLinkAction(null, { runId, linkId: link.id });
    setConfirmingId(null);
    return result.ok ? { ...result, message: `Revoked ${nameOf(link)}.` } : result;
  }, null);

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold">
        Links to this run
      </h3>
      {links.length === 0 ? (
        <p className="text-sm text-muted">No links yet.</p>
      ) : (
        <Table caption="Share links, newest first">
          <TableHead>
            <Th>Label</Th>
            <Th>Created (UTC)</Th>
            <Th>Expires (UTC)</Th>
            <Th>Status</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </TableHead>
          <tbody>
            {links.map((link) => (
              <Tr key={link.id}>
                <RowTh>{link.label ?? <span className="text-muted">Link #{link.id}</span>}</RowTh>
                <Td className="text-muted tabular-nums">
                  <time dateTime={link.createdAt}>{formatTime(link.createdAt)}</time>
                </Td>
                <Td className="text-muted tabular-nums">
                  {link.expiresAt ? (
                    <time dateTime={link.expiresAt}>{formatTime(link.expiresAt)}</time>
                  ) : (
                    "Never"
                  )}
                </Td>
                <Td>
                  <Badge tone={statusTone[link.status]}>{link.status}</Badge>
                </Td>
                <Td align="right">
                  {link.status !== "active" ? null : confirmingId === link.id ? (
                    <span className="inline-flex gap-2">
                      <button
                        type="button"
                        disabled={isRevoking}
                        onClick={() => startTransition(() => revoke(link))}
                        aria-label={`Revoke ${nameOf(link)} now`}
                        className={buttonClass({ variant: "danger", size: "sm" })}
                      >
                        Yes, revoke
                      </button>
                      <button
                        type="button"
                        disabled={isRevoking}
                        onClick={() => setConfirmingId(null)}
                        className={buttonClass({ variant: "ghost", size: "sm" })}
                      >
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      disabled={isRevoking}
                      onClick={() => setConfirmingId(link.id)}
                      aria-label={`Revoke ${nameOf(link)}`}
                      className={buttonClass({ variant: "secondary", size: "sm" })}
                    >
                      Revoke
                    </button>
                  )}
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      <p role="status" aria-live="polite" className="min-h-5 text-sm">
        {isRevoking ? (
          <span className="text-muted">Revoking…</span>
        ) : state && !state.ok ? (
          <span className="text-red-700 dark:text-red-300">{state.error}</span>
        ) : (
          state?.message
        )}
      </p>
    </section>
  );
}

import type { Pool, PoolClient } from "pg";
import { getPool } from "@/lib/db/pool";
import {
  SHARE_LINK_COLUMNS,
  toShareLinkItem,
  type ShareLinkItem,
} from "@/lib/db/queries/share-links";
import { AppError } from "@/lib/errors";
import { generateShareToken, hashShareToken } from "@/lib/share/token";
import { withTransaction } from "../transaction";

/**
 * Creating and revoking read-only share links. The token is returned once, to the person who
 * created it; the row keeps only its SHA-256. Audit events name the link by id, never by token.
 */

export const SHARE_LABEL_MAX = 80;
export const SHARE_EXPIRY_MAX_DAYS = 365;

async function audit(
  client: PoolClient,
  event: { runId: number; action: string; linkId: number; details: Record<string, unknown> },
) {
  await client.query(
    `INSERT INTO "AuditEvent" ("runId", action, "targetType", "targetId", details)
     VALUES ($1, $2, 'share_link', $3, $4)`,
    [event.runId, event.action, String(event.linkId), JSON.stringify(event.details)],
  );
}

export type CreateShareLinkOptions = {
  runId: number;
  label?: string | null;
  /** Omitted or null: the link works until revoked. */
  expiresInDays?: number | null;
  actor?: string | null;
  db?: Pool;
};

export async function createShareLink(
  options: CreateShareLinkOptions,
): Promise<{ token: string; link: ShareLinkItem }> {
  const label = options.label?.trim() || null;
  if (label && label.length > SHARE_LABEL_MAX) {
    throw new AppError("INVALID_INPUT", `A label has at most ${SHARE_LABEL_MAX} characters.`);
  }
  const days = options.expiresInDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > SHARE_EXPIRY_MAX_DAYS)) {
    throw new AppError(
      "INVALID_INPUT",
      `Expiry is a whole number of days from 1 to ${SHARE_EXPIRY_MAX_DAYS}.`,
    );
  }
  return withTransaction(options.db ?? getPool(), async (client) => {
    const run = await client.query(`SELECT 1 FROM "Run" WHERE id = $1`, [options.runId]);
    if (run.rowCount === 0) throw new AppError("NOT_FOUND", "That run does not exist.");
    const token = generateShareToken();
    const { rows } = await client.query(
      `INSERT INTO "ShareLink" AS s ("runId", "tokenHash", label, "expiresAt")
       VALUES ($1, $2, $3, CASE WHEN $4::int IS NULL THEN NULL
                                ELSE now() + make_interval(days => $4::int) END)
       RETURNING ${SHARE_LINK_COLUMNS}`,
      [options.runId, hashShareToken(token), label, days],
    );
    const link = toShareLinkItem(rows[0]);
    await audit(client, {
      runId: options.runId,
      action: "share.create",
      linkId: link.id,
      details: { actor: options.actor ?? null, label, expiresAt: link.expiresAt },
    });
    return { token, link };
  });
}

export type RevokeShareLinkOptions = {
  runId: number;
  linkId: number;
  actor?: string | null;
  db?: Pool;
};

/** Idempotent: revoking a revoked link returns it unchanged. A link of another run is NOT_FOUND. */
export async function revokeShareLink(options: RevokeShareLinkOptions): Promise<ShareLinkItem> {
  return withTransaction(options.db ?? getPool(), async (client) => {
    const revoked = await client.query(
      `UPDATE "ShareLink" s SET "revokedAt" = now()
        WHERE s.id = $1 AND s."runId" = $2 AND s."revokedAt" IS NULL
        RETURNING ${SHARE_LINK_COLUMNS}`,
      [options.linkId, options.runId],
    );
    if (revoked.rows[0]) {
      await audit(client, {
        runId: options.runId,
        action: "share.revoke",
        linkId: options.linkId,
        details: { actor: options.actor ?? null },
      });
      return toShareLinkItem(revoked.rows[0]);
    }
    const existing = await client.query(
      `SELECT ${SHARE_LINK_COLUMNS} FROM "ShareLink" s WHERE s.id = $1 AND s."runId" = $2`,
      [options.linkId, options.runId],
    );
    if (!existing.rows[0]) throw new AppError("NOT_FOUND", "That share link does not exist.");
    return toShareLinkItem(existing.rows[0]);
  });
}

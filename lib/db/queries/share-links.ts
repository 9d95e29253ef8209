import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import { hashShareToken, isWellFormedShareToken } from "@/lib/share/token";
import type { RunDetail } from "./runs";

/**
 * Reads of a run's share links. Nothing here returns a token or its hash: the token exists only in
 * the creator's dialog and the URL they pass on; the hash is for lookups inside Postgres.
 */

type Queryable = Pick<Pool, "query">;

export type ShareLinkStatus = "active" | "revoked" | "expired";

export type ShareLinkItem = {
  id: number;
  runId: number;
  label: string | null;
  /** ISO strings: the same values go to the server page and the dialog's client island. */
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  status: ShareLinkStatus;
};

type RawShareLink = {
  id: number;
  runId: number;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  expired: boolean;
};

export const SHARE_LINK_COLUMNS = `s.id, s."runId", s.label, s."createdAt", s."expiresAt",
  s."revokedAt", (s."expiresAt" IS NOT NULL AND s."expiresAt" <= now()) AS expired`;

export function toShareLinkItem(raw: RawShareLink): ShareLinkItem {
  return {
    id: raw.id,
    runId: raw.runId,
    label: raw.label,
    createdAt: raw.createdAt.toISOString(),
    expiresAt: raw.expiresAt?.toISOString() ?? null,
    revokedAt: raw.revokedAt?.toISOString() ?? null,
    // Revoked wins over expired: it is the decision a person made.
    status: raw.revokedAt ? "revoked" : raw.expired ? "expired" : "active",
  };
}

export type ListShareLinksOptions = { runId: number; db?: Queryable };

/** A run's links, newest first; a run has a handful, so no pagination. */
export async function listShareLinks(options: ListShareLinksOptions): Promise<ShareLinkItem[]> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<RawShareLink>(
    `SELECT ${SHARE_LINK_COLUMNS} FROM "ShareLink" s
      WHERE s."runId" = $1 ORDER BY s."createdAt" DESC, s.id DESC`,
    [options.runId],
  );
  return rows.map(toShareLinkItem);
}

export type ResolveShareTokenOptions = { token: string; db?: Queryable };
export type ResolvedShare = { run: RunDetail; link: ShareLinkItem };

/**
 * The run a share URL opens, or null for a malformed, unknown, revoked or expired token (one
 * answer for all, so a visitor learns nothing about which). The lookup is by hash on a unique
 * index: the secret itself is never compared byte by byte.
 */
export async function resolveShareToken(
  options: ResolveShareTokenOptions,
): Promise<ResolvedShare | null> {
  if (!isWellFormedShareToken(options.token)) return null;
  const db = options.db ?? getPool();
  const { rows } = await db.query<
    RawShareLink & {
      slug: string;
      name: string;
      mode: RunDetail["mode"];
      runStatus: RunDetail["status"];
      environment: string;
      agent: string;
      runCreatedAt: Date;
      config: unknown;
    }
  >(
    `SELECT ${SHARE_LINK_COLUMNS}, r.slug, r.name, r.mode, r.status AS "runStatus",
            r.environment, r.agent, r."createdAt" AS "runCreatedAt", r.config
       FROM "ShareLink" s JOIN "Run" r ON r.id = s."runId"
      WHERE s."tokenHash" = $1
        AND s."revokedAt" IS NULL
        AND (s."expiresAt" IS NULL OR s."expiresAt" > now())`,
    [hashShareToken(options.token)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    link: toShareLinkItem(row),
    run: {
      id: row.runId,
      slug: row.slug,
      name: row.name,
      mode: row.mode,
      status: row.runStatus,
      environment: row.environment,
      agent: row.agent,
      createdAt: row.runCreatedAt,
      config: row.config,
    },
  };
}

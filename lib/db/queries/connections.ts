import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import type { ConnectionKindName } from "@/lib/validations/connection";

/** Connections as pages show them: the sealed key is never selected, only its hint. */
export type ConnectionRow = {
  id: number;
  name: string;
  kind: ConnectionKindName;
  baseUrl: string;
  model: string | null;
  apiKeyHint: string | null;
  hasApiKey: boolean;
  runSlug: string | null;
  runName: string | null;
  createdAt: string;
};

export async function listConnections(
  options: { db?: Pick<Pool, "query"> } = {},
): Promise<ConnectionRow[]> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<Omit<ConnectionRow, "createdAt"> & { createdAt: Date }>(
    `SELECT c.id, c.name, replace(lower(c.kind::text), '_', '-') AS kind, c."baseUrl", c.model,
            c."apiKeyHint", c."apiKeySealed" IS NOT NULL AS "hasApiKey",
            r.slug AS "runSlug", r.name AS "runName", c."createdAt"
       FROM "Connection" c LEFT JOIN "Run" r ON r.id = c."runId"
      ORDER BY c."runId" NULLS FIRST, c.name`,
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

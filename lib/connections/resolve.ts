import type { Pool } from "pg";
import type { ConnectionKindName } from "@/lib/validations/connection";
import { loadSecretKey, openSecret } from "./secret-box";

/**
 * The one place a saved API key is decrypted, right before its endpoint is called (by the worker,
 * or by export and import when they reach a run's remote environment), and only for that
 * connection's own server.
 * A run's own connection of that name wins over the workspace's.
 */

export type ResolvedConnection = {
  name: string;
  kind: ConnectionKindName;
  baseUrl: string;
  model: string | null;
  apiKey: string | null;
};

export async function resolveConnectionSecret(
  db: Pick<Pool, "query">,
  options: {
    name: string;
    runId: number;
    kind?: ConnectionKindName;
    /** Where the key is about to be sent: it must be the connection's own server (origin). */
    sendTo: string;
    secretKey?: Buffer;
  },
): Promise<ResolvedConnection> {
  const { rows } = await db.query<Omit<ResolvedConnection, "apiKey"> & { sealed: string | null }>(
    `SELECT name, replace(lower(kind::text), '_', '-') AS kind, "baseUrl", model,
            "apiKeySealed" AS sealed
       FROM "Connection"
      WHERE name = $1 AND ("runId" = $2 OR "runId" IS NULL)
      ORDER BY "runId" NULLS LAST LIMIT 1`,
    [options.name, options.runId],
  );
  const row = rows[0];
  if (!row) {
    throw new Error(`no connection named "${options.name}" (add it under Settings → Connections)`);
  }
  if (options.kind && row.kind !== options.kind) {
    throw new Error(`connection "${row.name}" is a ${row.kind} connection, not ${options.kind}`);
  }
  // A run config names any URL; the connection names its server. The key goes nowhere else, or
  // any run could point a saved key at a host of its choosing.
  if (originOf(options.sendTo) !== originOf(row.baseUrl)) {
    throw new Error(
      `connection "${row.name}" holds the key for ${originOf(row.baseUrl)}, not for ${originOf(options.sendTo)}: point the run at that server or use another connection`,
    );
  }
  const { sealed, ...connection } = row;
  return {
    ...connection,
    apiKey: sealed === null ? null : openSecret(sealed, options.secretKey ?? loadSecretKey()),
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

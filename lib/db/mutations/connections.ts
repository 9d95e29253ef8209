import type { Pool } from "pg";
import { sealSecret, secretHint } from "@/lib/connections/secret-box";
import { AppError } from "@/lib/errors";
import type { ConnectionInput } from "@/lib/validations/connection";
import { withTransaction } from "../transaction";

/**
 * Saving and deleting connections. The API key is sealed before it reaches SQL and only its hint
 * comes back: nothing here returns or logs the key.
 */

export type SavedConnection = { id: number; name: string; apiKeyHint: string | null };

export async function createConnection(
  pool: Pool,
  input: ConnectionInput,
  secretKey: Buffer,
): Promise<SavedConnection> {
  return withTransaction(pool, async (client) => {
    // Names are unique per scope; the lock makes two saves of one name wait for each other.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('connection:' || $1))`, [input.name]);
    if (input.runId !== null) {
      const run = await client.query(`SELECT 1 FROM "Run" WHERE id = $1`, [input.runId]);
      if (run.rowCount !== 1) throw new AppError("NOT_FOUND", `Run ${input.runId} does not exist.`);
    }
    const taken = await client.query(
      `SELECT 1 FROM "Connection" WHERE name = $1 AND "runId" IS NOT DISTINCT FROM $2`,
      [input.name, input.runId],
    );
    if (taken.rowCount === 1) {
      throw new AppError(
        "CONFLICT",
        `A connection named "${input.name}" already exists ${input.runId === null ? "in the workspace" : "for this run"}; delete it first to replace it.`,
      );
    }
    const { rows } = await client.query<SavedConnection>(
      `INSERT INTO "Connection" (name, kind, "baseUrl", model, "apiKeySealed", "apiKeyHint", "runId")
       VALUES ($1, $2::"ConnectionKind", $3, $4, $5, $6, $7)
       RETURNING id, name, "apiKeyHint"`,
      [
        input.name,
        input.kind.toUpperCase().replace("-", "_"),
        input.baseUrl,
        input.model ?? null,
        input.apiKey === undefined ? null : sealSecret(input.apiKey, secretKey),
        input.apiKey === undefined ? null : secretHint(input.apiKey),
        input.runId,
      ],
    );
    return rows[0]!;
  });
}

export async function deleteConnection(pool: Pool, options: { id: number }): Promise<void> {
  const { rowCount } = await pool.query(`DELETE FROM "Connection" WHERE id = $1`, [options.id]);
  if (rowCount !== 1) throw new AppError("NOT_FOUND", "That connection no longer exists.");
}

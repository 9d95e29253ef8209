import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createShareLink, revokeShareLink } from "@/lib/db/mutations/share-links";
import { listShareLinks, resolveShareToken } from "@/lib/db/queries/share-links";
import { AppError } from "@/lib/errors";
import { generateShareToken, hashShareToken } from "@/lib/share/token";
import { testDatabaseUrl } from "@/tests/support/db";

vi.mock("server-only", () => ({}));

let pool: Pool;
beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
});
afterAll(async () => {
  await pool.end();
});

async function createRun(): Promise<{ id: number; slug: string }> {
  const slug = `share-${randomUUID()}`;
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, 'Shared run', 'COEVOLVE', 'toolworld', 'builtin', 1, '{"seed":1}', now())
     RETURNING id`,
    [slug],
  );
  return { id: rows[0]!.id, slug };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("share links", () => {
  it("resolves a created token to its run until the link is revoked", async () => {
    const run = await createRun();
    const { token, link } = await createShareLink({ runId: run.id, label: " For Ana ", db: pool });

    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).toMatchObject({ runId: run.id, label: "For Ana", status: "active" });
    expect(link.expiresAt).toBeNull();

    const resolved = await resolveShareToken({ token, db: pool });
    expect(resolved?.run).toMatchObject({ id: run.id, slug: run.slug, name: "Shared run" });
    expect(resolved?.run.config).toEqual({ seed: 1 });
    expect(resolved?.link.id).toBe(link.id);

    const revoked = await revokeShareLink({ runId: run.id, linkId: link.id, db: pool });
    expect(revoked.status).toBe("revoked");
    expect(await resolveShareToken({ token, db: pool })).toBeNull();

    // Idempotent: the second revoke keeps the first revocation time and writes no second event.
    const again = await revokeShareLink({ runId: run.id, linkId: link.id, db: pool });
    expect(again.revokedAt).toBe(revoked.revokedAt);
    const { rows: events } = await pool.query<{ action: string; targetId: string }>(
      `SELECT action, "targetId" FROM "AuditEvent" WHERE "runId" = $1 ORDER BY id`,
      [run.id],
    );
    expect(events).toEqual([
      { action: "share.create", targetId: String(link.id) },
      { action: "share.revoke", targetId: String(link.id) },
    ]);

    expect(await listShareLinks({ runId: run.id, db: pool })).toEqual([revoked]);
  });

  it("stores only the token's SHA-256, nowhere the token itself", async () => {
    const run = await createRun();
    const { token, link } = await createShareLink({ runId: run.id, db: pool });

    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT * FROM "ShareLink" WHERE id = $1`,
      [link.id],
    );
    expect(rows[0]!.tokenHash).toBe(hashShareToken(token));
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows[0])).not.toContain(token);
    const { rows: audit } = await pool.query(`SELECT * FROM "AuditEvent" WHERE "runId" = $1`, [
      run.id,
    ]);
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(audit)).not.toContain(hashShareToken(token));
    // What the dialog lists carries neither.
    const listed = JSON.stringify(await listShareLinks({ runId: run.id, db: pool }));
    expect(listed).not.toContain(token);
    expect(listed).not.toContain(hashShareToken(token));
  });

  it("stops resolving a link once it has expired", async () => {
    const run = await createRun();
    const { token, link } = await createShareLink({ runId: run.id, expiresInDays: 7, db: pool });
    const days = (Date.parse(link.expiresAt!) - Date.parse(link.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 5);
    expect(await resolveShareToken({ token, db: pool })).not.toBeNull();

    await pool.query(
      `UPDATE "ShareLink" SET "expiresAt" = now() - interval '1 second' WHERE id = $1`,
      [link.id],
    );
    expect(await resolveShareToken({ token, db: pool })).toBeNull();
    const [listed] = await listShareLinks({ runId: run.id, db: pool });
    expect(listed!.status).toBe("expired");
  });

  it("resolves malformed and unknown tokens to null", async () => {
    const malformed = [
      "",
      "abc",
      "x".repeat(44),
      `${"a".repeat(42)}=`,
      "../../etc/passwd",
      "' OR 1=1 --",
    ];
    for (const token of malformed) {
      expect(await resolveShareToken({ token, db: pool })).toBeNull();
    }
    expect(await resolveShareToken({ token: generateShareToken(), db: pool })).toBeNull();
  });

  it("refuses to revoke a link through another run, and bad create input", async () => {
    const owner = await createRun();
    const other = await createRun();
    const { token, link } = await createShareLink({ runId: owner.id, db: pool });

    const wrongRun = await rejection(
      revokeShareLink({ runId: other.id, linkId: link.id, db: pool }),
    );
    expect(wrongRun.code).toBe("NOT_FOUND");
    const unknown = await rejection(
      revokeShareLink({ runId: owner.id, linkId: 2_000_000_000, db: pool }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    // The link still works: the refused revoke changed nothing.
    expect(await resolveShareToken({ token, db: pool })).not.toBeNull();

    const noRun = await rejection(createShareLink({ runId: 2_000_000_000, db: pool }));
    expect(noRun.code).toBe("NOT_FOUND");
    for (const expiresInDays of [0, -1, 1.5, 366]) {
      const error = await rejection(createShareLink({ runId: owner.id, expiresInDays, db: pool }));
      expect(error.code).toBe("INVALID_INPUT");
    }
    const longLabel = await rejection(
      createShareLink({ runId: owner.id, label: "x".repeat(81), db: pool }),
    );
    expect(longLabel.code).toBe("INVALID_INPUT");
    expect(await listShareLinks({ runId: owner.id, db: pool })).toHaveLength(1);
  });
});

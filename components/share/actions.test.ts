import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import type { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getPool } from "@/lib/db/pool";
import { resolveShareToken } from "@/lib/db/queries/share-links";
import { testDatabaseUrl } from "@/tests/support/db";
import { createShareLinkAction, revokeShareLinkAction } from "./actions";

vi.mock("server-only", () => ({}));
// Outside a Next request there is no cache to revalidate; what matters is that it is asked to.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let pool: Pool;
let runId: number;
beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  pool = getPool();
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, 'Action run', 'STATIC', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
    [`share-action-${randomUUID()}`],
  );
  runId = rows[0]!.id;
});
afterAll(async () => {
  await pool.end();
  // getPool() keeps its pool on globalThis: leave none behind that is already ended.
  delete (globalThis as { pgPool?: Pool }).pgPool;
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("share link actions", () => {
  it("create a link from the dialog's form and return its path once", async () => {
    const result = await createShareLinkAction(
      null,
      form({ runId: String(runId), label: "Team", expiresInDays: "" }),
    );

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.path).toMatch(/^\/share\/[A-Za-z0-9_-]{43}$/);
    const share = await resolveShareToken({ token: result.path.slice("/share/".length), db: pool });
    expect(share?.run.id).toBe(runId);
    expect(share?.link).toMatchObject({ id: result.linkId, label: "Team", expiresAt: null });
    expect(revalidatePath).toHaveBeenCalledWith("/runs/[slug]", "page");
  });

  it("answer bad form input with field errors and write nothing", async () => {
    const before = await pool.query(
      `SELECT count(*)::int AS n FROM "ShareLink" WHERE "runId" = $1`,
      [runId],
    );
    const badExpiry = await createShareLinkAction(
      null,
      form({ runId: String(runId), expiresInDays: "0" }),
    );
    expect(badExpiry).toMatchObject({
      ok: false,
      fieldErrors: { expiresInDays: ["Must be at least 1"] },
    });
    const longLabel = await createShareLinkAction(
      null,
      form({ runId: String(runId), label: "x".repeat(81) }),
    );
    expect(longLabel).toMatchObject({
      ok: false,
      fieldErrors: { label: ["At most 80 characters"] },
    });
    const noRun = await createShareLinkAction(null, form({ runId: "2000000000" }));
    expect(noRun).toEqual({ ok: false, code: "NOT_FOUND", error: "That run does not exist." });
    const after = await pool.query(
      `SELECT count(*)::int AS n FROM "ShareLink" WHERE "runId" = $1`,
      [runId],
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("revoke a link of this run, and refuse one of another run", async () => {
    const created = await createShareLinkAction(null, form({ runId: String(runId) }));
    if (!created.ok) throw new Error(created.error);

    const wrongRun = await revokeShareLinkAction(null, {
      runId: runId + 1,
      linkId: created.linkId,
    });
    expect(wrongRun).toEqual({
      ok: false,
      code: "NOT_FOUND",
      error: "That share link does not exist.",
    });
    const token = created.path.slice("/share/".length);
    expect(await resolveShareToken({ token, db: pool })).not.toBeNull();

    const revoked = await revokeShareLinkAction(null, { runId, linkId: created.linkId });
    expect(revoked).toEqual({ ok: true, message: "Link revoked: it no longer opens the run." });
    expect(await resolveShareToken({ token, db: pool })).toBeNull();
  });
});

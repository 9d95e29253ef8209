import { parseGenerationIndex } from "@/lib/validations/ids";
import { NextResponse } from "next/server";
import { getPool } from "@/lib/db/pool";
import { httpStatusOf, isAppError } from "@/lib/errors";
import { getQueueClient } from "@/lib/jobs/client";
import { bearerToken, INVALID_JSON, reportCheckpoint } from "@/lib/jobs/trainer-callback";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * POST /api/runs/:slug/generations/:n/checkpoint — an external trainer reports the checkpoint of
 * generation n with `Authorization: Bearer <one-time token>` and `{ uri | endpoint, version?,
 * metrics? }`. 200 moves the round on to EVALUATE; 401/403 bad token, 409 not waiting, 422 body.
 */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ slug: string; n: string }> },
) {
  const { slug, n } = await params;
  const index = parseGenerationIndex(n);
  if (index === null) {
    return NextResponse.json({ error: "Generation not found" }, { status: 404, headers: NO_STORE });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = INVALID_JSON;
  }
  try {
    const result = await reportCheckpoint(
      { pool: getPool(), boss: await getQueueClient() },
      { slug, index, token: bearerToken(request.headers.get("authorization")), body },
    );
    if (!result.ok) {
      return NextResponse.json(
        { error: result.error, ...(result.issues ? { issues: result.issues } : {}) },
        {
          status: result.status,
          headers: result.status === 401 ? { ...NO_STORE, "WWW-Authenticate": "Bearer" } : NO_STORE,
        },
      );
    }
    return NextResponse.json(result.value, { headers: NO_STORE });
  } catch (error) {
    if (isAppError(error)) {
      return NextResponse.json(
        { error: error.message },
        { status: httpStatusOf(error), headers: NO_STORE },
      );
    }
    // The message only: a request error may echo the Authorization header.
    console.error(
      "[api checkpoint] unexpected error:",
      error instanceof Error ? error.message : "unknown",
    );
    return NextResponse.json({ error: "Internal error" }, { status: 500, headers: NO_STORE });
  }
}

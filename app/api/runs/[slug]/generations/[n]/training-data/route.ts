import { parseGenerationIndex } from "@/lib/validations/ids";
import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { getPool } from "@/lib/db/pool";
import { httpStatusOf, isAppError } from "@/lib/errors";
import { bearerToken, openTrainingData } from "@/lib/jobs/trainer-callback";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs/:slug/generations/:n/training-data — the round's training data (JSONL) for an
 * external trainer that cannot read the worker's disk; same one-time token as the checkpoint
 * report, which stays valid until the report.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ slug: string; n: string }> },
) {
  const { slug, n } = await params;
  const index = parseGenerationIndex(n);
  if (index === null) {
    return NextResponse.json({ error: "Generation not found" }, { status: 404, headers: NO_STORE });
  }
  try {
    const result = await openTrainingData(
      { pool: getPool() },
      { slug, index, token: bearerToken(request.headers.get("authorization")) },
    );
    if (!result.ok) {
      return NextResponse.json(
        { error: result.error },
        { status: result.status, headers: NO_STORE },
      );
    }
    return new Response(Readable.toWeb(result.value.stream) as ReadableStream<Uint8Array>, {
      headers: {
        ...NO_STORE,
        "Content-Type": "application/jsonl",
        "Content-Length": String(result.value.bytes),
      },
    });
  } catch (error) {
    if (isAppError(error)) {
      return NextResponse.json(
        { error: error.message },
        { status: httpStatusOf(error), headers: NO_STORE },
      );
    }
    console.error(
      "[api training-data] unexpected error:",
      error instanceof Error ? error.message : "unknown",
    );
    return NextResponse.json({ error: "Internal error" }, { status: 500, headers: NO_STORE });
  }
}

import { NextResponse } from "next/server";
import { z } from "zod";
import { getPool } from "@/lib/db/pool";
import { httpStatusOf, isAppError } from "@/lib/errors";
import { prepareExport } from "@/lib/export/create-export";
import { ExportQuerySchema } from "@/lib/validations/export";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/** Pulls the next chunk only when the client has read the previous one: backpressure end to end. */
function toReadableStream(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          console.error("[api export] failed mid-stream", error);
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * GET /api/runs/:slug/export?generation=&format=jsonl|parquet|tasks&purpose=train|eval|all&status=approved|all
 * Streams the file (chunked, no Content-Length). X-Total-Rows says how many rows (lines for the
 * JSONL formats) the body holds, so a client can show progress before the first byte arrives.
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const query = ExportQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    return NextResponse.json(
      { error: "Invalid query", issues: z.flattenError(query.error).fieldErrors },
      { status: 422, headers: NO_STORE },
    );
  }
  try {
    const prepared = await prepareExport({ db: getPool(), slug, ...query.data });
    return new Response(toReadableStream(prepared.body), {
      headers: {
        ...NO_STORE,
        "Content-Type": prepared.contentType,
        "Content-Disposition": `attachment; filename="${prepared.filename}"`,
        "X-Total-Rows": String(prepared.total),
        "Access-Control-Expose-Headers": "X-Total-Rows, Content-Disposition",
      },
    });
  } catch (error) {
    if (isAppError(error)) {
      return NextResponse.json(
        { error: error.message },
        { status: httpStatusOf(error), headers: NO_STORE },
      );
    }
    console.error("[api export] unexpected error", error);
    return NextResponse.json({ error: "Internal error" }, { status: 500, headers: NO_STORE });
  }
}

import { NextResponse } from "next/server";
import { z } from "zod";
import { getRunProgressBySlug } from "@/lib/db/queries/generations";
import { httpStatusOf, isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(3),
});

// Polled about once a second per open run page while a round runs: never cached anywhere.
const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/runs/:slug/progress?limit=3 — the run's newest generations with per-stage progress. */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    return NextResponse.json(
      { error: "Invalid query", issues: z.flattenError(query.error).fieldErrors },
      { status: 422, headers: NO_STORE },
    );
  }
  try {
    const progress = await getRunProgressBySlug({ slug, limit: query.data.limit });
    if (!progress) {
      return NextResponse.json({ error: "Run not found" }, { status: 404, headers: NO_STORE });
    }
    return NextResponse.json(progress, { headers: NO_STORE });
  } catch (error) {
    if (isAppError(error)) {
      return NextResponse.json(
        { error: error.message },
        { status: httpStatusOf(error), headers: NO_STORE },
      );
    }
    console.error("[api progress] unexpected error", error);
    return NextResponse.json({ error: "Internal error" }, { status: 500, headers: NO_STORE });
  }
}

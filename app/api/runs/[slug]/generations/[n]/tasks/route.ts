import { parseGenerationIndex } from "@/lib/validations/ids";
import { NextResponse } from "next/server";
import { PAGE_SIZE, parseBrowserState } from "@/components/generation/browser-params";
import { listGenerationTasks } from "@/lib/db/queries/generation-tasks";
import { getRunBySlug } from "@/lib/db/queries/runs";
import { httpStatusOf, isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET /api/runs/:slug/generations/:n/tasks?<the browser's own params> — one page of the generation
 * table as JSON, so the keyboard review mode can load the next page before the reviewer gets there.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ slug: string; n: string }> },
) {
  const { slug, n } = await params;
  const generationIndex = parseGenerationIndex(n);
  if (generationIndex === null) {
    return NextResponse.json({ error: "Generation not found" }, { status: 404, headers: NO_STORE });
  }
  const state = parseBrowserState(Object.fromEntries(new URL(request.url).searchParams));
  if (state.problems.length > 0) {
    return NextResponse.json(
      { error: state.problems.join(" ") },
      { status: 422, headers: NO_STORE },
    );
  }
  try {
    const run = await getRunBySlug({ slug });
    if (!run)
      return NextResponse.json({ error: "Run not found" }, { status: 404, headers: NO_STORE });
    const page = await listGenerationTasks({
      runId: run.id,
      generationIndex,
      filter: state.filter,
      sort: state.sort,
      page: state.page,
      limit: PAGE_SIZE,
    });
    return NextResponse.json(page, { headers: NO_STORE });
  } catch (error) {
    if (isAppError(error)) {
      return NextResponse.json(
        { error: error.message },
        { status: httpStatusOf(error), headers: NO_STORE },
      );
    }
    console.error("[api generation tasks] unexpected error", error);
    return NextResponse.json({ error: "Internal error" }, { status: 500, headers: NO_STORE });
  }
}

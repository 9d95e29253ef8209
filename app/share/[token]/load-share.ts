import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import type { RunViewContext } from "@/components/run/view-context";
import { resolveShareToken } from "@/lib/db/queries/share-links";
import { sharePath } from "@/lib/share/token";

/** One lookup per request, shared by the layout, generateMetadata and the page. */
export const loadShare = cache((token: string) => resolveShareToken({ token }));

/**
 * The view context of a shared page: read-only, every link under `/share/<token>`. An invalid
 * token ends the request in app/share/not-found.tsx (HTTP 404).
 */
export async function sharedViewContext(
  params: Promise<{ token: string }>,
): Promise<RunViewContext> {
  const { token } = await params;
  const share = await loadShare(token);
  if (!share) notFound();
  return { run: share.run, basePath: sharePath(token), canAct: false };
}

import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { loadRun } from "./load-run";

/**
 * Resolves the run above the loading boundaries (this segment's and the dashboard's), so an
 * unknown slug answers a real 404 before any byte of the page is streamed.
 */
export default async function RunLayout({
  params,
  children,
}: {
  params: Promise<{ slug: string }>;
  children: ReactNode;
}) {
  const run = await loadRun((await params).slug);
  if (!run) notFound();
  return children;
}

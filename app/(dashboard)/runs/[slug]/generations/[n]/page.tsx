import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { GenerationBrowser } from "@/components/generation/generation-browser";
import type { ViewSearchParams } from "@/components/run/view-context";
import { getRunBySlug } from "@/lib/db/queries/runs";

type GenerationPageProps = {
  params: Promise<{ slug: string; n: string }>;
  searchParams: Promise<ViewSearchParams>;
};

const loadRun = cache((slug: string) => getRunBySlug({ slug }));

/** "3" is generation 3; "03", "-1", "1.5" or "x" are no generation at all. */
function parseGenerationIndex(n: string): number | null {
  return /^(0|[1-9]\d{0,8})$/.test(n) ? Number(n) : null;
}

export async function generateMetadata({ params }: GenerationPageProps): Promise<Metadata> {
  const { slug, n } = await params;
  const run = await loadRun(slug);
  const index = parseGenerationIndex(n);
  return { title: run && index !== null ? `Generation ${index} · ${run.name}` : "Not found" };
}

export default async function GenerationPage({ params, searchParams }: GenerationPageProps) {
  const { slug, n } = await params;
  const generationIndex = parseGenerationIndex(n);
  if (generationIndex === null) notFound();
  const run = await loadRun(slug);
  if (!run) notFound();
  return (
    <GenerationBrowser
      run={run}
      basePath={`/runs/${run.slug}`}
      canAct
      generationIndex={generationIndex}
      searchParams={await searchParams}
    />
  );
}

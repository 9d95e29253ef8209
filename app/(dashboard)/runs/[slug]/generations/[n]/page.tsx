import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GenerationBrowser } from "@/components/generation/generation-browser";
import type { ViewSearchParams } from "@/components/run/view-context";
import { parseGenerationIndex } from "@/lib/validations/ids";
import { loadRun } from "../../load-run";

type GenerationPageProps = {
  params: Promise<{ slug: string; n: string }>;
  searchParams: Promise<ViewSearchParams>;
};

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

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunOverview } from "@/components/run/run-overview";
import { ArchiveRunButton } from "./archive-run-button";
import { loadRun } from "./load-run";

type RunPageProps = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  const run = await loadRun((await params).slug);
  return { title: run?.name ?? "Run not found" };
}

export default async function RunPage({ params, searchParams }: RunPageProps) {
  const { slug } = await params;
  const run = await loadRun(slug);
  if (!run) notFound();
  return (
    <RunOverview
      run={run}
      basePath={`/runs/${slug}`}
      canAct={true}
      searchParams={await searchParams}
      headerActions={run.status === "ACTIVE" ? <ArchiveRunButton runId={run.id} /> : undefined}
    />
  );
}

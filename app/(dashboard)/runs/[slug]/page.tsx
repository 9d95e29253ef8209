import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunOverview } from "@/components/run/run-overview";
import Link from "next/link";
import { ShareButton } from "@/components/share/share-button";
import { buttonClass } from "@/components/ui/button";
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
      headerActions={
        <div className="flex flex-wrap items-start gap-2">
          <ShareButton run={run} />
          <Link href={`/runs/${slug}/config`} className={buttonClass({ variant: "secondary" })}>
            Config
          </Link>
          <Link href={`/runs/${slug}/import`} className={buttonClass({ variant: "secondary" })}>
            Export and import
          </Link>
          {run.status === "ACTIVE" && <ArchiveRunButton runId={run.id} />}
        </div>
      }
    />
  );
}

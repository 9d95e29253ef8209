import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TrajectoryView } from "@/components/trajectory/trajectory-view";
import { loadRun } from "../../load-run";

type TrajectoryPageProps = {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: TrajectoryPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: `Trajectory ${id}` };
}

export default async function TrajectoryPage({ params, searchParams }: TrajectoryPageProps) {
  const { slug, id } = await params;
  const run = await loadRun(slug);
  if (!run) notFound();
  return (
    <TrajectoryView
      run={run}
      basePath={`/runs/${run.slug}`}
      canAct
      trajectoryId={id}
      searchParams={await searchParams}
    />
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GroupView } from "@/components/trajectory/group-view";
import { parseGenerationIndex, parseIntId } from "@/lib/validations/ids";
import { loadRun } from "../../../../load-run";

type GroupPageProps = {
  params: Promise<{ slug: string; n: string; taskId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: GroupPageProps): Promise<Metadata> {
  const { n, taskId } = await params;
  return { title: `Group: task ${taskId}, generation ${n}` };
}

export default async function GroupPage({ params, searchParams }: GroupPageProps) {
  const { slug, n, taskId } = await params;
  const run = await loadRun(slug);
  const generationIndex = parseGenerationIndex(n);
  const task = parseIntId(taskId);
  if (!run || generationIndex === null || task === null) notFound();
  return (
    <GroupView
      run={run}
      basePath={`/runs/${run.slug}`}
      canAct
      generationIndex={generationIndex}
      taskId={task}
      searchParams={await searchParams}
    />
  );
}

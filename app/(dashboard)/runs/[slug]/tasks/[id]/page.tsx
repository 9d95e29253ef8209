import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TaskView } from "@/components/task/task-view";
import { parseIntId } from "@/lib/validations/ids";
import { loadRun } from "../../load-run";

type TaskPageProps = {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: TaskPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: `Task ${id}` };
}

export default async function TaskPage({ params, searchParams }: TaskPageProps) {
  const { slug, id } = await params;
  const run = await loadRun(slug);
  const taskId = parseIntId(id);
  if (!run || taskId === null) notFound();
  const basePath = `/runs/${run.slug}`;
  return (
    <TaskView
      run={run}
      basePath={basePath}
      canAct
      taskId={taskId}
      searchParams={await searchParams}
    />
  );
}

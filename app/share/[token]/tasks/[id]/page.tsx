import { notFound } from "next/navigation";
import type { ViewSearchParams } from "@/components/run/view-context";
import { TaskView } from "@/components/task/task-view";
import { parseIntId } from "@/lib/validations/ids";
import { sharedViewContext } from "../../load-share";

type Props = {
  params: Promise<{ token: string; id: string }>;
  searchParams: Promise<ViewSearchParams>;
};

export default async function SharedTaskPage({ params, searchParams }: Props) {
  const taskId = parseIntId((await params).id);
  if (taskId === null) notFound();
  const context = await sharedViewContext(params);
  return <TaskView {...context} taskId={taskId} searchParams={await searchParams} />;
}

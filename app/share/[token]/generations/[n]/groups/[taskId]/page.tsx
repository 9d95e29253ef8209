import { notFound } from "next/navigation";
import type { ViewSearchParams } from "@/components/run/view-context";
import { GroupView } from "@/components/trajectory/group-view";
import { parseGenerationIndex, parseIntId } from "@/lib/validations/ids";
import { sharedViewContext } from "../../../../load-share";

type Props = {
  params: Promise<{ token: string; n: string; taskId: string }>;
  searchParams: Promise<ViewSearchParams>;
};

export default async function SharedGroupPage({ params, searchParams }: Props) {
  const { n, taskId } = await params;
  const generationIndex = parseGenerationIndex(n);
  const task = parseIntId(taskId);
  if (generationIndex === null || task === null) notFound();
  const context = await sharedViewContext(params);
  return (
    <GroupView
      {...context}
      generationIndex={generationIndex}
      taskId={task}
      searchParams={await searchParams}
    />
  );
}

import { notFound } from "next/navigation";
import type { ViewSearchParams } from "@/components/run/view-context";
import { TrajectoryView } from "@/components/trajectory/trajectory-view";
import { parseBigIntId } from "@/lib/validations/ids";
import { sharedViewContext } from "../../load-share";

type Props = {
  params: Promise<{ token: string; id: string }>;
  searchParams: Promise<ViewSearchParams>;
};

export default async function SharedTrajectoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  // Trajectory ids are bigint: checked as digits, passed on as the string.
  if (parseBigIntId(id) === null) notFound();
  const context = await sharedViewContext(params);
  return <TrajectoryView {...context} trajectoryId={id} searchParams={await searchParams} />;
}

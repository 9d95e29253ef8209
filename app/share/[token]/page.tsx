import { RunOverview } from "@/components/run/run-overview";
import type { ViewSearchParams } from "@/components/run/view-context";
import { sharedViewContext } from "./load-share";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<ViewSearchParams> };

export default async function SharedRunPage({ params, searchParams }: Props) {
  const context = await sharedViewContext(params);
  return <RunOverview {...context} searchParams={await searchParams} />;
}

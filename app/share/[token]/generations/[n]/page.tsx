import { notFound } from "next/navigation";
import { GenerationBrowser } from "@/components/generation/generation-browser";
import type { ViewSearchParams } from "@/components/run/view-context";
import { parseGenerationIndex } from "@/lib/validations/ids";
import { sharedViewContext } from "../../load-share";

type Props = {
  params: Promise<{ token: string; n: string }>;
  searchParams: Promise<ViewSearchParams>;
};

export default async function SharedGenerationPage({ params, searchParams }: Props) {
  const generationIndex = parseGenerationIndex((await params).n);
  if (generationIndex === null) notFound();
  const context = await sharedViewContext(params);
  return (
    <GenerationBrowser
      {...context}
      generationIndex={generationIndex}
      searchParams={await searchParams}
    />
  );
}

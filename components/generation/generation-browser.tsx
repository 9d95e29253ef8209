// PLACEHOLDER (share branch): replaced by the real view on merge
import Link from "next/link";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";

export async function GenerationBrowser({
  run,
  basePath,
  generationIndex,
}: RunViewContext & { generationIndex: number; searchParams: ViewSearchParams }) {
  return (
    <div className="space-y-2">
      <Link href={runPaths.overview(basePath)} className="text-sm underline">
        {run.name}
      </Link>
      <h1 className="text-2xl font-semibold">Generation {generationIndex}</h1>
    </div>
  );
}

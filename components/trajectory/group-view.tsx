// PLACEHOLDER (share branch): replaced by the real view on merge
import Link from "next/link";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";

export async function GroupView({
  run,
  basePath,
  generationIndex,
  taskId,
}: RunViewContext & { generationIndex: number; taskId: number; searchParams: ViewSearchParams }) {
  return (
    <div className="space-y-2">
      <Link href={runPaths.generation(basePath, generationIndex)} className="text-sm underline">
        {run.name} · generation {generationIndex}
      </Link>
      <h1 className="text-2xl font-semibold">Group of task {taskId}</h1>
    </div>
  );
}

// PLACEHOLDER (share branch): replaced by the real view on merge
import Link from "next/link";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";

export async function TaskView({
  run,
  basePath,
  taskId,
}: RunViewContext & { taskId: number; searchParams: ViewSearchParams }) {
  return (
    <div className="space-y-2">
      <Link href={runPaths.overview(basePath)} className="text-sm underline">
        {run.name}
      </Link>
      <h1 className="text-2xl font-semibold">Task {taskId}</h1>
    </div>
  );
}

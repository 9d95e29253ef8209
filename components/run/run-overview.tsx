// PLACEHOLDER (share branch): replaced by the real view on merge
import Link from "next/link";
import type { ReactNode } from "react";
import { listGenerations } from "@/lib/db/queries/generations";
import { runPaths, type RunViewContext, type ViewSearchParams } from "./view-context";

export async function RunOverview({
  run,
  basePath,
  headerActions,
}: RunViewContext & { searchParams: ViewSearchParams; headerActions?: ReactNode }) {
  const generations = await listGenerations({ runId: run.id });
  return (
    <div className="space-y-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{run.name}</h1>
          <p className="text-sm text-muted">
            {run.mode.toLowerCase()} · {run.status.toLowerCase()} · {run.environment}
          </p>
        </div>
        {headerActions}
      </header>
      <h2 className="text-base font-semibold">Generations</h2>
      <ul className="list-disc pl-6 text-sm">
        {generations.map((generation) => (
          <li key={generation.index}>
            <Link href={runPaths.generation(basePath, generation.index)} className="underline">
              Generation {generation.index}
            </Link>{" "}
            ({generation.status})
          </li>
        ))}
      </ul>
    </div>
  );
}

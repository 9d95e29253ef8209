import type { Metadata } from "next";
import { connection } from "next/server";
import { listConnections } from "@/lib/db/queries/connections";
import { listRuns } from "@/lib/db/queries/runs";
import { listHeldoutCurves } from "@/lib/db/queries/stats";
import { RunConfigSchema } from "@/lib/validations/run-config";
import { NewRunForm, type ConnectionChoice, type NewRunDefaults } from "./new-run-form";
import { CompareGroups, RunsTable } from "./runs-table";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await connection(); // rendered per request: the list changes as runs are created
  const runs = await listRuns();
  // One grouped query for every listed run's curve, not one per row.
  const curves = await listHeldoutCurves({ runIds: runs.map((run) => run.id) });
  const heldout = Object.fromEntries(
    [...curves].map(([runId, curve]) => [runId, curve.map((point) => point.rate)]),
  );
  // Workspace connections only: a run's own connections are made after the run exists.
  const connections = (await listConnections()).flatMap((c): ConnectionChoice[] =>
    c.runSlug === null && (c.kind === "openai" || c.kind === "http-environment")
      ? [{ name: c.name, kind: c.kind, baseUrl: c.baseUrl, model: c.model }]
      : [],
  );
  const config = RunConfigSchema.parse({});
  const defaults: NewRunDefaults = {
    mode: config.mode,
    seed: config.seed,
    tasksPerRound: config.tasksPerRound,
    groupSize: config.groupSize,
    synthesisBudget: config.synthesisBudget,
    replayFraction: config.replayFraction,
    reviewMode: config.review.mode,
  };

  return (
    <section aria-labelledby="runs-heading" className="space-y-6">
      <NewRunForm defaults={defaults} connections={connections}>
        <div className="flex items-baseline gap-3">
          <h1 id="runs-heading" className="text-2xl font-semibold tracking-tight">
            Runs
          </h1>
          <p className="text-sm text-muted">
            {runs.length === 1 ? "1 run" : `${runs.length} runs`}
          </p>
        </div>
      </NewRunForm>
      {runs.length === 0 ? (
        <div className="rounded-lg border border-dashed border-border bg-panel p-10 text-center">
          <h2 className="text-lg font-medium">No runs yet</h2>
          <p className="mt-2 text-sm text-muted">
            A run evolves an agent and its training data together, one round at a time. Runs you
            create will be listed here.
          </p>
        </div>
      ) : (
        <>
          <CompareGroups runs={runs} />
          <RunsTable runs={runs} heldout={heldout} />
        </>
      )}
    </section>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { BarChart } from "@/components/charts/bar-chart";
import { ChartCard } from "@/components/charts/chart-card";
import { LineChart } from "@/components/charts/line-chart";
import { seriesColor } from "@/components/charts/palette";
import { modeLabel } from "@/components/run/run-overview";
import { EmptyState } from "@/components/ui/empty-state";
import { cumulativeBudget } from "@/lib/charts/budget";
import { formatCount, formatRate } from "@/lib/charts/format";
import { overallSuccessByRun, successBreakdown, type Breakdown } from "@/lib/charts/success";
import { parseList } from "@/lib/charts/view-params";
import { listRuns, listRunsBySlugs, type RunDetail } from "@/lib/db/queries/runs";
import { listSkillStats, listTrainingBudget } from "@/lib/db/queries/stats";
import { ComparePicker } from "./compare-picker";

export const metadata: Metadata = { title: "Compare runs" };

/** Lines beyond this stop being readable on one chart. */
const MAX_RUNS = 8;

type ComparePageProps = {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export default async function ComparePage({ searchParams }: ComparePageProps) {
  await connection();
  const requested = parseList((await searchParams).runs);
  const asked = requested.slice(0, MAX_RUNS);
  const [{ runs, missing }, listed] = await Promise.all([
    listRunsBySlugs({ slugs: asked }),
    listRuns({ limit: 100 }),
  ]);
  const runIds = runs.map((run) => run.id);
  const [skillStats, budget] = await Promise.all([
    listSkillStats({ runIds, split: "HELDOUT" }),
    listTrainingBudget({ runIds }),
  ]);
  const selected = runs.map((run) => run.slug);
  // Picked runs stay pickable even when archived or beyond the list's first page.
  const pickable = [
    ...runs.filter((run) => !listed.some((l) => l.slug === run.slug)),
    ...listed,
  ].map((run) => ({ slug: run.slug, name: run.name, mode: modeLabel[run.mode] }));

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <nav aria-label="Breadcrumb" className="text-xs text-muted">
          <Link href="/" className="hover:text-fg">
            Runs
          </Link>
          <span aria-hidden="true"> / </span>
          <span>Compare</span>
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight">Compare runs</h1>
        <p className="text-sm text-muted">
          Held-out success of several runs side by side, with what each spent on training.
        </p>
      </header>

      <ComparePicker runs={pickable} selected={selected} />

      {(missing.length > 0 || requested.length > MAX_RUNS) && (
        <div
          role="alert"
          className="rounded-md border border-amber-600/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-200"
        >
          {missing.length > 0 && (
            <p>
              {missing.length === 1 ? "No run is called " : "No runs are called "}
              {missing.map((slug, i) => (
                <span key={slug}>
                  {i > 0 ? ", " : ""}
                  <code className="font-mono">{slug}</code>
                </span>
              ))}
              : {missing.length === 1 ? "it is" : "they are"} left out.{" "}
              <Link
                href={selected.length ? `/compare?runs=${selected.join(",")}` : "/compare"}
                className="underline"
              >
                Remove from the link
              </Link>
            </p>
          )}
          {requested.length > MAX_RUNS && (
            <p>
              Only the first {MAX_RUNS} runs are compared; {requested.length - MAX_RUNS} more were
              left out.
            </p>
          )}
        </div>
      )}

      {runs.length === 0 ? (
        <EmptyState title="No runs selected">
          Pick two or more runs above, for example a co-evolving run and its static baseline, or use
          a “Compare” link on the runs page for runs launched together.
        </EmptyState>
      ) : (
        <CompareCharts runs={runs} skillStats={skillStats} budget={budget} />
      )}
    </div>
  );
}

function CompareCharts({
  runs,
  skillStats,
  budget,
}: {
  runs: RunDetail[];
  skillStats: Awaited<ReturnType<typeof listSkillStats>>;
  budget: Awaited<ReturnType<typeof listTrainingBudget>>;
}) {
  const label = (run: RunDetail) => `${run.name} (${modeLabel[run.mode]})`;
  const series = runs.map((run, i) => ({
    key: run.slug,
    label: label(run),
    color: seriesColor(i),
  }));
  const curves = overallSuccessByRun(skillStats);
  const generations = [
    ...new Set([...curves.values()].flatMap((curve) => curve.map((p) => p.generation))),
  ].sort((a, b) => a - b);
  const curveRows = generations.map((generation) => ({
    x: generation,
    ...Object.fromEntries(
      runs.map((run) => [
        run.slug,
        curves.get(run.id)?.find((p) => p.generation === generation)?.rate ?? null,
      ]),
    ),
  }));
  const breakdowns = new Map(
    runs.map((run) => [run.id, successBreakdown(skillStats, { runId: run.id })]),
  );
  const spent = cumulativeBudget(budget);
  const budgetGenerations = [...new Set(budget.map((p) => p.generation))].sort((a, b) => a - b);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <ChartCard
          id="compare-heldout"
          title="Held-out success by generation"
          description="Share of the held-out episodes each run's policy solved, generation by generation."
          isEmpty={generations.length === 0}
          emptyTitle="No held-out results yet"
          emptyText="The curves appear once the runs' generations are evaluated."
          data={{
            caption: "Held-out success by generation and run",
            columns: ["Generation", ...runs.map(label)],
            rows: curveRows.map((row) => [
              String(row.x),
              ...runs.map((run) =>
                formatRate((row as Record<string, number | null>)[run.slug] ?? null),
              ),
            ]),
          }}
        >
          <LineChart
            data={curveRows}
            series={series}
            format="percent"
            xLabel="Generation"
            yDomain={[0, 1]}
            height={300}
          />
        </ChartCard>
      </div>
      <BreakdownCard runs={runs} breakdowns={breakdowns} series={series} by="skill" />
      <BreakdownCard runs={runs} breakdowns={breakdowns} series={series} by="level" />
      <div className="lg:col-span-2">
        <ChartCard
          id="compare-budget"
          title="Training spent"
          description="Environment steps of training rollouts, summed up to each generation: an honest comparison spends the same."
          isEmpty={budgetGenerations.length === 0}
          emptyTitle="Nothing trained yet"
          emptyText="Training starts with the first round."
          data={{
            caption: "Training rollouts and environment steps up to the latest generation, by run",
            columns: ["Run", "Generations", "Training rollouts", "Training env steps"],
            rows: runs.map((run) => {
              const last = spent.get(run.id)?.at(-1);
              return [
                label(run),
                String(spent.get(run.id)?.length ?? 0),
                formatCount(last?.rollouts ?? 0),
                formatCount(last?.envSteps ?? 0),
              ];
            }),
          }}
        >
          <LineChart
            data={budgetGenerations.map((generation) => ({
              x: generation,
              ...Object.fromEntries(
                runs.map((run) => [
                  run.slug,
                  spent.get(run.id)?.find((p) => p.generation === generation)?.envSteps ?? null,
                ]),
              ),
            }))}
            series={series}
            format="count"
            xLabel="Generation"
          />
        </ChartCard>
      </div>
    </div>
  );
}

function BreakdownCard({
  runs,
  breakdowns,
  series,
  by,
}: {
  runs: RunDetail[];
  breakdowns: Map<number, Breakdown>;
  series: { key: string; label: string; color: string }[];
  by: "skill" | "level";
}) {
  const pick = (b: Breakdown | undefined) => (by === "skill" ? b?.bySkill : b?.byLevel) ?? {};
  const keys = [...new Set(runs.flatMap((run) => Object.keys(pick(breakdowns.get(run.id)))))].sort(
    (a, b) => a.localeCompare(b, "en", { numeric: true }),
  );
  const atGeneration = runs
    .map((run) => `${run.name}: generation ${breakdowns.get(run.id)?.generation ?? "—"}`)
    .join("; ");
  const title =
    by === "skill" ? "Latest held-out success by skill" : "Latest held-out success by level";
  return (
    <ChartCard
      id={`compare-by-${by}`}
      title={title}
      description={`Each run at its latest evaluated generation (${atGeneration}).`}
      isEmpty={keys.length === 0}
      emptyTitle="No held-out results yet"
      emptyText="The breakdown appears once the runs' generations are evaluated."
      data={{
        caption: `${title}, by run`,
        columns: [by === "skill" ? "Skill" : "Level", ...series.map((s) => s.label)],
        rows: keys.map((key) => [
          key,
          ...runs.map((run) => formatRate(pick(breakdowns.get(run.id))[key] ?? null)),
        ]),
      }}
    >
      <BarChart
        format="percent"
        xLabel={by === "skill" ? "Skill" : "Level"}
        yDomain={[0, 1]}
        data={keys.map((key) => ({
          x: key,
          ...Object.fromEntries(
            runs.map((run) => [run.slug, pick(breakdowns.get(run.id))[key] ?? null]),
          ),
        }))}
        series={series}
      />
    </ChartCard>
  );
}

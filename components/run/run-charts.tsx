import { BarChart } from "@/components/charts/bar-chart";
import { ChartCard } from "@/components/charts/chart-card";
import { DifficultyChart } from "@/components/charts/difficulty-chart";
import { LineChart } from "@/components/charts/line-chart";
import { outcomeColors, seriesColor } from "@/components/charts/palette";
import { SuccessControls } from "@/components/charts/success-controls";
import { SuccessHeatmap } from "@/components/charts/success-heatmap";
import { formatCount, formatDifficulty, formatRate } from "@/lib/charts/format";
import { successHeatmap } from "@/lib/charts/heatmap";
import { difficultyDrift, reviewOutcomes, signalMix } from "@/lib/charts/quantiles";
import { skillSuccessSeries } from "@/lib/charts/success";
import { parseSuccessView } from "@/lib/charts/view-params";
import { listDataStats, listSkillStats } from "@/lib/db/queries/stats";
import type { RunConfig } from "@/lib/validations/run-config";
import type { RunViewContext, ViewSearchParams } from "./view-context";

const FIRST_ROUND_HINT = "It fills in as rounds finish.";

/**
 * The four charts of a run's overview, read from the statistics tables only. Everything the charts
 * need is shaped here on the server; client charts get plain series.
 */
export async function RunCharts({
  run,
  config,
  searchParams,
}: Pick<RunViewContext, "run"> & { config: RunConfig | null; searchParams: ViewSearchParams }) {
  const [skillStats, dataStats] = await Promise.all([
    listSkillStats({ runIds: [run.id] }),
    listDataStats({ runId: run.id }),
  ]);
  const view = parseSuccessView(searchParams);
  const series = skillSuccessSeries(skillStats, view);
  // Colours follow the skill, not its position among the selected ones: picking skills keeps them.
  const everySkill = [...new Set(skillStats.map((p) => p.skill))].sort();
  const colors = Object.fromEntries(everySkill.map((skill, i) => [skill, seriesColor(i)]));
  const splitName = view.split === "TRAIN" ? "training" : "held-out";

  const heatmap = successHeatmap(skillStats);
  const drift = difficultyDrift(dataStats);
  const band = config?.review.mode === "auto-band" ? config.review.band : null;
  const signals = signalMix(dataStats);
  const reviews = reviewOutcomes(dataStats);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <ChartCard
          id="skill-success"
          title="Success rate by skill"
          description={
            view.split === "TRAIN"
              ? "Share of training rollouts solved per skill, by generation (the policy on its own training pool)."
              : "Share of held-out episodes solved per skill, by generation (tasks never trained on)."
          }
          controls={
            series.allSkills.length > 0 || view.split === "TRAIN" ? (
              <SuccessControls
                params={searchParams}
                view={view}
                allSkills={series.allSkills}
                colors={colors}
              />
            ) : undefined
          }
          isEmpty={series.rows.length === 0 || series.skills.length === 0}
          emptyTitle={
            series.rows.length === 0 ? `No ${splitName} results yet` : "No skill selected"
          }
          emptyText={
            series.rows.length === 0
              ? view.split === "TRAIN"
                ? "Training success is recorded when the next round rolls out a generation's pool."
                : `Held-out success is recorded when a generation is evaluated. ${FIRST_ROUND_HINT}`
              : "Pick at least one skill above."
          }
          data={{
            caption: `${splitName[0]!.toUpperCase()}${splitName.slice(1)} success by skill and generation`,
            columns: ["Generation", ...series.skills],
            rows: series.rows.map((row) => [
              String(row.generation),
              ...series.skills.map((skill) => formatRate(row.rates[skill] ?? null)),
            ]),
          }}
        >
          <LineChart
            data={series.rows.map((row) => ({ x: row.generation, ...row.rates }))}
            series={series.skills.map((skill) => ({
              key: skill,
              label: skill,
              color: colors[skill]!,
            }))}
            format="percent"
            xLabel="Generation"
            yDomain={[0, 1]}
            height={280}
          />
        </ChartCard>
      </div>

      <div className="lg:col-span-2">
        <ChartCard
          id="success-heatmap"
          title="Held-out success: skill × generation"
          description="Each cell is the share of a skill's held-out episodes solved by that generation's policy."
          isEmpty={heatmap.generations.length === 0}
          emptyTitle="No held-out results yet"
          emptyText={FIRST_ROUND_HINT}
        >
          <SuccessHeatmap heatmap={heatmap} />
        </ChartCard>
      </div>

      <ChartCard
        id="difficulty-drift"
        title="Difficulty drift of new tasks"
        description={
          <>
            Difficulty (0 easy – 1 hard) of each generation&apos;s new training tasks: estimated
            when made, measured once a policy attempted them.
            {band
              ? ` The shaded band is the curation band (${formatDifficulty(band[0])}–${formatDifficulty(band[1])}).`
              : ""}
          </>
        }
        isEmpty={drift.length === 0}
        emptyTitle="No new tasks yet"
        emptyText="Generation 0's seed pool appears here once it is stored; later generations as rounds synthesize tasks."
        data={{
          caption: "Difficulty of new tasks by generation: estimated and measured quantiles",
          columns: [
            "Generation",
            "Tasks",
            "Estimated min",
            "Estimated q25",
            "Estimated median",
            "Estimated q75",
            "Estimated max",
            "Measured q25",
            "Measured median",
            "Measured q75",
          ],
          rows: drift.map((p) => [
            String(p.generation),
            formatCount(p.tasks),
            ...[0, 1, 2, 3, 4].map((k) => formatDifficulty(p.estimated?.[k])),
            ...[1, 2, 3].map((k) => formatDifficulty(p.measured?.[k])),
          ]),
        }}
      >
        <DifficultyChart
          band={band}
          data={drift.map((p) => ({
            x: p.generation,
            estimatedRange: p.estimated ? [p.estimated[0], p.estimated[4]] : null,
            estimatedIqr: p.estimated ? [p.estimated[1], p.estimated[3]] : null,
            estimatedMedian: p.estimated?.[2] ?? null,
            measuredIqr: p.measured ? [p.measured[1], p.measured[3]] : null,
            measuredMedian: p.measured?.[2] ?? null,
          }))}
        />
      </ChartCard>

      <ChartCard
        id="signal-mix"
        title="Signal mix"
        description="Which feedback signal each generation's synthesized tasks target."
        isEmpty={signals.length === 0}
        emptyTitle="No synthesized tasks yet"
        emptyText={
          run.mode === "STATIC"
            ? "A static run trains on its seed pool and synthesizes nothing."
            : "Signals appear once a round has synthesized tasks."
        }
        data={{
          caption: "New tasks by signal and generation",
          columns: ["Generation", "Forgetting", "Boundary", "Rare", "Uniform"],
          rows: signals.map((p) => [
            String(p.generation),
            ...[p.forgetting, p.boundary, p.rare, p.uniform].map(formatCount),
          ]),
        }}
      >
        <BarChart
          isStacked
          format="count"
          xLabel="Generation"
          data={signals.map((p) => ({
            x: p.generation,
            forgetting: p.forgetting,
            boundary: p.boundary,
            rare: p.rare,
            uniform: p.uniform,
          }))}
          series={(["forgetting", "boundary", "rare", "uniform"] as const).map((key) => ({
            key,
            label: key[0]!.toUpperCase() + key.slice(1),
            color: outcomeColors[key],
          }))}
        />
      </ChartCard>

      <ChartCard
        id="review-outcomes"
        title="Review outcomes"
        description="How each generation's new tasks were curated (invalid ones are rejected by the validator)."
        isEmpty={reviews.length === 0}
        emptyTitle="Nothing reviewed yet"
        emptyText={FIRST_ROUND_HINT}
        data={{
          caption: "New tasks by review outcome and generation",
          columns: ["Generation", "Approved", "Rejected", "Pending"],
          rows: reviews.map((p) => [
            String(p.generation),
            ...[p.approved, p.rejected, p.pending].map(formatCount),
          ]),
        }}
      >
        <BarChart
          isStacked
          format="count"
          xLabel="Generation"
          data={reviews.map((p) => ({
            x: p.generation,
            approved: p.approved,
            rejected: p.rejected,
            pending: p.pending,
          }))}
          series={(["approved", "rejected", "pending"] as const).map((key) => ({
            key,
            label: key[0]!.toUpperCase() + key.slice(1),
            color: outcomeColors[key],
          }))}
        />
      </ChartCard>
    </div>
  );
}

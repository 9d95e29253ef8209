import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { getRunProgress, listGenerations } from "@/lib/db/queries/generations";
import { listComparableSlugs } from "@/lib/db/queries/runs";
import {
  httpEnvironmentOf,
  llmSynthesizerOf,
  openAiAgentOf,
  RunConfigSchema,
  type RunConfig,
} from "@/lib/validations/run-config";
import { formatTime } from "./format";
import { GenerationsTable } from "./generations-table";
import { RoundPanel } from "./round-panel";
import { RunCharts } from "./run-charts";
import { runPaths, type RunViewContext, type ViewSearchParams } from "./view-context";

export const modeLabel = { COEVOLVE: "co-evolve", STATIC: "static", UNIFORM: "uniform" } as const;
const reviewLabel = { manual: "manual", auto: "auto", "auto-band": "auto with band" } as const;

export type RunOverviewProps = RunViewContext & {
  searchParams: ViewSearchParams;
  /** Rendered at the header's right (the dashboard's archive button); nothing on a share page. */
  headerActions?: ReactNode;
};

/**
 * The whole overview body of a run, for the dashboard and for a share link: header, config,
 * charts, the round panel (only when the viewer may act) and the generation timeline. Links go
 * through runPaths(basePath), so a shared view never links out of its share.
 */
export async function RunOverview({
  run,
  basePath,
  canAct,
  searchParams,
  headerActions,
}: RunOverviewProps) {
  const [generations, progress, comparable] = await Promise.all([
    listGenerations({ runId: run.id }),
    canAct ? getRunProgress({ run }) : null,
    canAct ? listComparableSlugs({ runId: run.id }) : null,
  ]);
  // The engine reads the stored config through the same schema, so this is what it runs with.
  const parsed = RunConfigSchema.safeParse(run.config);
  const config = parsed.success ? parsed.data : null;

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <nav aria-label="Breadcrumb" className="text-xs text-muted">
            {canAct ? (
              <>
                <Link href="/" className="hover:text-fg">
                  Runs
                </Link>
                <span aria-hidden="true"> / </span>
              </>
            ) : null}
            <Link href={runPaths.overview(basePath)} aria-current="page" className="hover:text-fg">
              {run.slug}
            </Link>
          </nav>
          <h1 className="truncate text-2xl font-semibold tracking-tight">{run.name}</h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
            <Badge tone="strong">{modeLabel[run.mode]}</Badge>
            <Badge tone={run.status === "ACTIVE" ? "good" : "neutral"}>
              {run.status.toLowerCase()}
            </Badge>
            <span>
              {run.environment} · {run.agent} agent · created{" "}
              <time dateTime={run.createdAt.toISOString()}>
                {formatTime(run.createdAt.toISOString())} UTC
              </time>
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-start gap-3">
          {comparable && (
            <Link
              href={`/compare?runs=${comparable.join(",")}`}
              className="rounded-md border border-border px-2.5 py-1 text-xs text-muted hover:bg-panel hover:text-fg"
            >
              {comparable.length > 1 ? `Compare with its group (${comparable.length})` : "Compare"}
            </Link>
          )}
          {headerActions}
        </div>
      </header>

      {config && (
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-border px-4 py-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <ConfigItem term="Seed" value={config.seed} />
          <ConfigItem term="Tasks per round" value={config.tasksPerRound} />
          <ConfigItem term="Group size (G)" value={config.groupSize} />
          <ConfigItem term="Synthesis budget" value={config.synthesisBudget} />
          <ConfigItem
            term="Review"
            value={
              config.review.mode === "auto-band"
                ? `${reviewLabel[config.review.mode]} ${config.review.band[0]}–${config.review.band[1]}`
                : reviewLabel[config.review.mode]
            }
          />
          <ConfigItem
            term="Replay fraction"
            value={`${Math.round(config.replayFraction * 100)}%`}
          />
          <ConfigItem term="Agent" value={describeAgent(config, canAct)} wide />
          <ConfigItem term="Synthesizer" value={describeSynthesizer(config, canAct)} wide />
          <ConfigItem term="Environment" value={describeEnvironment(config, canAct)} wide />
        </dl>
      )}

      {canAct && progress && (
        <RoundPanel runId={run.id} slug={run.slug} initialProgress={progress} />
      )}

      <RunCharts run={run} config={config} searchParams={searchParams} />

      <section aria-labelledby="generations-heading" className="space-y-3">
        <div className="flex items-baseline justify-between">
          <h2 id="generations-heading" className="text-base font-semibold">
            Generations
          </h2>
          <p className="text-sm text-muted">
            {generations.length === 1 ? "1 generation" : `${generations.length} generations`}
          </p>
        </div>
        {generations.length === 0 ? (
          <EmptyState title="No generations yet">
            Generation 0 (seed pool, held-out set, base policy) is computed right after the run is
            created.
          </EmptyState>
        ) : (
          <GenerationsTable generations={generations} basePath={basePath} canAct={canAct} />
        )}
      </section>
    </div>
  );
}

function ConfigItem({
  term,
  value,
  wide = false,
}: {
  term: string;
  value: string | number;
  wide?: boolean;
}) {
  return (
    <div className={`min-w-0 ${wide ? "col-span-2 sm:col-span-3" : ""}`}>
      <dt className="truncate text-xs text-muted">{term}</dt>
      <dd className="font-medium tabular-nums break-all">{value}</dd>
    </div>
  );
}

/**
 * Where rollouts ran. Endpoints are shown to people who can act on the run, not on share pages
 * (an internal host name is nobody else's business); keys are never in the config at all.
 */
function describeAgent(config: RunConfig, showEndpoint: boolean): string {
  const agent = openAiAgentOf(config);
  if (!agent) return "builtin policy";
  const via = agent.connection ? ` · key from connection “${agent.connection}”` : "";
  return showEndpoint
    ? `OpenAI-compatible · ${agent.model} at ${agent.baseUrl}${via}`
    : `OpenAI-compatible · ${agent.model}`;
}

function describeSynthesizer(config: RunConfig, showEndpoint: boolean): string {
  const synthesizer = llmSynthesizerOf(config);
  if (!synthesizer) return "builtin (rule-based)";
  const via = synthesizer.connection ? ` · key from connection “${synthesizer.connection}”` : "";
  return showEndpoint
    ? `LLM · ${synthesizer.model} at ${synthesizer.baseUrl}${via}`
    : `LLM · ${synthesizer.model}`;
}

function describeEnvironment(config: RunConfig, showEndpoint: boolean): string {
  const environment = httpEnvironmentOf(config);
  if (!environment) return "ToolWorld (builtin)";
  const via = environment.connection ? ` · key from connection “${environment.connection}”` : "";
  return showEndpoint ? `HTTP · ${environment.baseUrl}${via}` : "HTTP environment server";
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getRunProgress, listGenerations } from "@/lib/db/queries/generations";
import { getRunBySlug } from "@/lib/db/queries/runs";
import { RunConfigSchema } from "@/lib/validations/run-config";
import { ShareButton } from "@/components/share/share-button";
import { ArchiveRunButton } from "./archive-run-button";
import { formatTime } from "./format";
import { GenerationsTable } from "./generations-table";
import { RoundPanel } from "./round-panel";

type RunPageProps = { params: Promise<{ slug: string }> };

/** generateMetadata and the page share one lookup per request. */
const loadRun = cache((slug: string) => getRunBySlug({ slug }));

const modeLabel = { COEVOLVE: "co-evolve", STATIC: "static", UNIFORM: "uniform" } as const;
const reviewLabel = { manual: "manual", auto: "auto", "auto-band": "auto with band" } as const;

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  const run = await loadRun((await params).slug);
  return { title: run?.name ?? "Run not found" };
}

export default async function RunPage({ params }: RunPageProps) {
  const { slug } = await params;
  const run = await loadRun(slug);
  if (!run) notFound();
  const [generations, progress] = await Promise.all([
    listGenerations({ runId: run.id }),
    getRunProgress({ run }),
  ]);
  // The engine reads the stored config through the same schema, so this is what it runs with.
  const config = RunConfigSchema.safeParse(run.config);

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <nav aria-label="Breadcrumb" className="text-xs text-muted">
            <Link href="/" className="hover:text-fg">
              Runs
            </Link>
            <span aria-hidden="true"> / </span>
            <span>{run.slug}</span>
          </nav>
          <h1 className="truncate text-2xl font-semibold tracking-tight">{run.name}</h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
            <span className="rounded border border-border px-1.5 py-0.5 text-xs font-medium text-fg">
              {modeLabel[run.mode]}
            </span>
            <span
              className={`rounded border px-1.5 py-0.5 text-xs font-medium ${
                run.status === "ACTIVE"
                  ? "border-emerald-600/30 text-emerald-700 dark:text-emerald-300"
                  : "border-border text-muted"
              }`}
            >
              {run.status.toLowerCase()}
            </span>
            <span>
              {run.environment} · {run.agent} agent · created{" "}
              <time dateTime={run.createdAt.toISOString()}>
                {formatTime(run.createdAt.toISOString())} UTC
              </time>
            </span>
          </p>
        </div>
        <div className="flex items-start gap-2">
          <ShareButton run={run} />
          {run.status === "ACTIVE" && <ArchiveRunButton runId={run.id} />}
        </div>
      </header>

      {config.success && (
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-border px-4 py-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <ConfigItem term="Seed" value={config.data.seed} />
          <ConfigItem term="Tasks per round" value={config.data.tasksPerRound} />
          <ConfigItem term="Group size (G)" value={config.data.groupSize} />
          <ConfigItem term="Synthesis budget" value={config.data.synthesisBudget} />
          <ConfigItem term="Review" value={reviewLabel[config.data.review.mode]} />
          <ConfigItem
            term="Replay fraction"
            value={`${Math.round(config.data.replayFraction * 100)}%`}
          />
        </dl>
      )}

      <RoundPanel runId={run.id} slug={run.slug} initialProgress={progress} />

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
          <p className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted">
            No generations yet.
          </p>
        ) : (
          <GenerationsTable generations={generations} />
        )}
      </section>
    </div>
  );
}

function ConfigItem({ term, value }: { term: string; value: string | number }) {
  return (
    <div className="min-w-0">
      <dt className="truncate text-xs text-muted">{term}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

import Link from "next/link";
import { ExportButton } from "@/components/export/export-button";
import { notFound } from "next/navigation";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableHead, Tr } from "@/components/ui/table";
import {
  countGenerationTasks,
  getGeneration,
  isEmptyFilter,
  listGenerationSkills,
  listGenerationTasks,
  type GenerationSummary,
} from "@/lib/db/queries/generation-tasks";
import type { GenerationStatus } from "@/lib/generated/prisma/enums";
import {
  EMPTY_FILTER,
  PAGE_SIZE,
  browserHref,
  filterParams,
  parseBrowserState,
} from "./browser-params";
import { FilterForm } from "./filter-form";
import { ReviewTable } from "./review-table";
import { TaskCells, TaskHeaderCells } from "./task-cells";

export type GenerationBrowserProps = RunViewContext & {
  generationIndex: number;
  searchParams: ViewSearchParams;
};

const statusTone: Record<GenerationStatus, BadgeTone> = {
  QUEUED: "neutral",
  RUNNING: "info",
  AWAITING_REVIEW: "warn",
  DONE: "good",
  FAILED: "bad",
  CANCELLED: "neutral",
};

const number = new Intl.NumberFormat("en-US");

/**
 * A generation's tasks: counts, filters, a keyset-paginated table and (for people who may act,
 * while the generation waits for review) the review controls. All state comes from the URL.
 */
export async function GenerationBrowser(props: GenerationBrowserProps) {
  const { run, basePath, canAct, generationIndex } = props;
  const generation = await getGeneration({ runId: run.id, generationIndex });
  if (!generation) notFound();

  const state = parseBrowserState(props.searchParams);
  const query = { runId: run.id, generationIndex, filter: state.filter };
  const [counts, page, skills] = await Promise.all([
    countGenerationTasks(query),
    listGenerationTasks({ ...query, sort: state.sort, page: state.page, limit: PAGE_SIZE }),
    listGenerationSkills(query),
  ]);
  const path = runPaths.generation(basePath, generationIndex);
  const isFiltered = !isEmptyFilter(state.filter);
  const isReviewOpen = canAct && generation.status === "AWAITING_REVIEW";
  const rowsHeading = `generation-${generationIndex}-tasks`;
  const noMatch = (
    <EmptyState title="No task matches this filter">
      <Link
        href={browserHref(path, { filter: EMPTY_FILTER, sort: state.sort })}
        className="text-accent underline"
      >
        Clear the filter
      </Link>
    </EmptyState>
  );

  return (
    <div className="space-y-5">
      <header className="space-y-1">
        <nav aria-label="Breadcrumb" className="text-xs text-muted">
          {canAct ? (
            <>
              <Link href="/" className="hover:text-fg">
                Runs
              </Link>
              <span aria-hidden="true"> / </span>
            </>
          ) : null}
          <Link href={runPaths.overview(basePath)} className="hover:text-fg">
            {run.name}
          </Link>
          <span aria-hidden="true"> / </span>
          <span aria-current="page">Generation {generationIndex}</span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Generation {generationIndex}</h1>
          <Badge tone={statusTone[generation.status]}>{generation.status.replace("_", " ")}</Badge>
          {canAct ? (
            <div className="ml-auto">
              <ExportButton slug={run.slug} generation={generationIndex} />
            </div>
          ) : null}
        </div>
        <p className="text-sm text-muted tabular-nums" aria-label="Task counts">
          {number.format(counts.total)} tasks born in this generation
          {isFiltered ? ` · ${number.format(counts.matching)} match the filter` : ""} ·{" "}
          {number.format(counts.review.PENDING)} pending · {number.format(counts.review.APPROVED)}{" "}
          approved · {number.format(counts.review.REJECTED)} rejected
        </p>
      </header>

      {state.problems.length > 0 ? (
        <div
          role="alert"
          className="rounded-md border border-amber-600/40 px-3 py-2 text-sm text-amber-800 dark:text-amber-200"
        >
          {state.problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}

      {canAct && !isReviewOpen ? <ReviewClosedNote generation={generation} /> : null}

      <FilterForm action={path} filter={state.filter} sort={state.sort} skills={skills} />

      <section aria-labelledby={rowsHeading} className="space-y-3">
        <h2 id={rowsHeading} className="sr-only">
          Tasks
        </h2>
        {counts.total === 0 ? (
          <EmptyState title="No tasks in this generation">
            {generationIndex === 0
              ? "The seed pool has not been built yet."
              : "Its round has not synthesized any tasks (yet)."}
          </EmptyState>
        ) : isReviewOpen ? (
          <ReviewTable
            runId={run.id}
            generationIndex={generationIndex}
            basePath={basePath}
            rows={page.rows}
            filter={state.filter}
            isFiltered={isFiltered}
            matching={counts.matching}
            nextCursor={page.next}
            pagesUrl={pagesUrl(run.slug, generationIndex, state)}
            emptyState={noMatch}
          />
        ) : page.rows.length === 0 ? (
          noMatch
        ) : (
          <Table caption={`Tasks of generation ${generationIndex}`}>
            <TableHead>
              <TaskHeaderCells />
            </TableHead>
            <tbody>
              {page.rows.map((task) => (
                <Tr key={task.id}>
                  <TaskCells task={task} taskHref={runPaths.task(basePath, task.id)} />
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <Pagination path={path} state={state} next={page.next} previous={page.previous} />
      </section>
    </div>
  );
}

/** The JSON twin of this view (same params), where review mode reads the following pages. */
function pagesUrl(
  slug: string,
  generationIndex: number,
  state: ReturnType<typeof parseBrowserState>,
): string {
  const params = filterParams(state.filter);
  if (state.sort !== "newest") params.set("sort", state.sort);
  const query = params.toString();
  return `/api/runs/${slug}/generations/${generationIndex}/tasks${query ? `?${query}` : ""}`;
}

function ReviewClosedNote({ generation }: { generation: GenerationSummary }) {
  const why =
    generation.reviewClosedAt !== null
      ? `Review of generation ${generation.index} was closed on ${generation.reviewClosedAt.slice(0, 16).replace("T", " ")} UTC: its decisions are final.`
      : generation.status === "QUEUED" || generation.status === "RUNNING"
        ? `Generation ${generation.index} is still running: its tasks can be reviewed once it waits for review.`
        : `Generation ${generation.index} is not waiting for review (${generation.status.replace("_", " ").toLowerCase()}): its tasks were decided automatically or its round ended.`;
  return (
    <p className="rounded-md border border-border bg-panel px-3 py-2 text-sm text-muted">{why}</p>
  );
}

function Pagination({
  path,
  state,
  next,
  previous,
}: {
  path: string;
  state: ReturnType<typeof parseBrowserState>;
  next: string | null;
  previous: string | null;
}) {
  if (!next && !previous) return null;
  const link = "rounded-md border border-border px-2.5 py-1 hover:bg-panel";
  const off = "rounded-md border border-border px-2.5 py-1 text-muted opacity-60";
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-end gap-2 text-sm">
      {previous ? (
        <>
          <Link href={browserHref(path, state)} className={link}>
            First page
          </Link>
          <Link href={browserHref(path, state, { before: previous })} className={link} rel="prev">
            Previous page
          </Link>
        </>
      ) : (
        <span className={off}>First page</span>
      )}
      {next ? (
        <>
          <Link href={browserHref(path, state, { after: next })} className={link} rel="next">
            Next page
          </Link>
          <Link href={browserHref(path, state, { before: "end" })} className={link}>
            Last page
          </Link>
        </>
      ) : (
        <span className={off}>Last page</span>
      )}
    </nav>
  );
}

import { reviewTone, validationTone } from "@/components/generation/task-cells";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { RowTh, Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";
import {
  Fact,
  FactGrid,
  JsonBlock,
  RunBreadcrumb,
  SuccessBadge,
  firstParam,
  formatNumber,
  formatSigned,
  groupSizeOf,
  parsePurpose,
  purposeLabel,
  withQuery,
} from "@/components/trajectory/view-parts";
import {
  formatTrajectoryCursor,
  getTaskDetail,
  getTaskLineage,
  listTaskChildren,
  listTaskTrajectories,
  parseTrajectoryCursor,
  type LineageEntry,
  type TaskTrajectoryRow,
} from "@/lib/db/queries/tasks";
import { groupRewardStats } from "@/lib/trajectories/divergence";
import { segmentByGroup, type GroupSegment } from "@/lib/trajectories/groups";
import type { TrajectoryPurpose } from "@/lib/generated/prisma/enums";
import { SignalSummary } from "./signal-summary";

export type TaskViewProps = RunViewContext & { taskId: number; searchParams: ViewSearchParams };

const originLabel = { SEED: "seed", SYNTHESIZED: "synthesized", IMPORTED: "imported" } as const;
const PAGE_SIZE = 50;

/** A task: what it asks, how hard it is, where it came from, and every attempt at it. */
export async function TaskView({ run, basePath, taskId, searchParams }: TaskViewProps) {
  const order = firstParam(searchParams.order) === "asc" ? "asc" : "desc";
  const purpose = parsePurpose(searchParams.purpose);
  const after = parseTrajectoryCursor(firstParam(searchParams.after));
  const [task, lineage, children, trajectories] = await Promise.all([
    getTaskDetail({ runId: run.id, taskId }),
    getTaskLineage({ runId: run.id, taskId }),
    listTaskChildren({ runId: run.id, taskId }),
    listTaskTrajectories({ runId: run.id, taskId, order, purpose, after, limit: PAGE_SIZE }),
  ]);
  if (!task || !lineage) notFound();

  const taskPath = runPaths.task(basePath, task.id);
  const groupSize = groupSizeOf(run);
  const query = {
    order: order === "asc" ? "asc" : null,
    purpose: purpose ? purposeLabel[purpose] : null,
  };

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <RunBreadcrumb
          run={run}
          basePath={basePath}
          trail={[
            {
              label: `Generation ${task.bornGeneration}`,
              href: runPaths.generation(basePath, task.bornGeneration),
            },
            { label: `Task ${task.id}` },
          ]}
        />
        <h1 className="text-xl font-semibold tracking-tight">
          <span className="sr-only">Task {task.id}: </span>
          {task.instruction}
        </h1>
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
          <Badge tone="strong">{task.skill}</Badge>
          <span>level {task.level}</span>
          <Badge>{originLabel[task.origin]}</Badge>
          <Badge tone={task.split === "HELDOUT" ? "info" : "neutral"}>
            {task.split === "HELDOUT" ? "held-out" : "train"}
          </Badge>
          <span>born in generation {task.bornGeneration}</span>
          <span className="font-mono text-xs">key {task.key}</span>
        </p>
      </header>

      <FactGrid label="Task facts">
        <Fact term="Estimated difficulty">{formatNumber(task.estimatedDifficulty)}</Fact>
        <Fact term="Measured difficulty">
          {task.measuredDifficulty === null ? (
            <span className="text-muted">not attempted yet</span>
          ) : (
            <>
              {formatNumber(task.measuredDifficulty)}{" "}
              <span className="text-xs font-normal text-muted">
                by policy v{task.measuredByPolicyVersion ?? "?"}
              </span>
            </>
          )}
        </Fact>
        <Fact term="Validation">
          <Badge tone={validationTone[task.validationStatus]}>
            {task.validationStatus.toLowerCase()}
          </Badge>
        </Fact>
        <Fact term="Review">
          <Badge tone={reviewTone[task.reviewStatus]}>{task.reviewStatus.toLowerCase()}</Badge>
        </Fact>
        <Fact term="Reviewer">{task.reviewer ?? <span className="text-muted">—</span>}</Fact>
        <Fact term="Reviewed (UTC)">
          {task.reviewedAt ? (
            <time dateTime={task.reviewedAt.toISOString()}>
              {task.reviewedAt.toISOString().slice(0, 16).replace("T", " ")}
            </time>
          ) : (
            <span className="text-muted">—</span>
          )}
        </Fact>
      </FactGrid>

      {(task.validationReason || task.reviewNote) && (
        <div className="grid gap-3 text-sm sm:grid-cols-2">
          {task.validationReason && (
            <p className="rounded-lg border border-border px-4 py-3">
              <span className="block text-xs text-muted">Validation reason</span>
              {task.validationReason}
            </p>
          )}
          {task.reviewNote && (
            <p className="rounded-lg border border-border px-4 py-3">
              <span className="block text-xs text-muted">Review note</span>
              {task.reviewNote}
            </p>
          )}
        </div>
      )}

      <JsonBlock label="Spec (JSON)" value={task.spec} isCollapsed />

      <section aria-labelledby="lineage-heading" className="space-y-3">
        <h2 id="lineage-heading" className="text-base font-semibold">
          Lineage
        </h2>
        {lineage.isTruncated && (
          <p className="text-sm text-muted">
            The chain is longer than shown: it starts at the oldest ancestor reached.
          </p>
        )}
        <Lineage chain={lineage.chain} basePath={basePath} currentId={task.id} />
      </section>

      {children.children.length > 0 && (
        <section aria-labelledby="children-heading" className="space-y-3">
          <h2 id="children-heading" className="text-base font-semibold">
            Derived tasks
            <span className="ml-2 text-sm font-normal text-muted">
              {children.hasMore
                ? `first ${children.children.length}`
                : `${children.children.length}`}
            </span>
          </h2>
          <ul className="divide-y divide-border rounded-lg border border-border text-sm">
            {children.children.map((child) => (
              <li key={child.id} className="flex flex-wrap items-baseline gap-2 px-3 py-2">
                <Badge tone="info">{child.relation ?? "derived"}</Badge>
                {child.signalKind && <Badge>{child.signalKind.toLowerCase()}</Badge>}
                <Link
                  href={runPaths.task(basePath, child.id)}
                  className="min-w-0 flex-1 text-accent hover:underline"
                >
                  {child.instruction}
                </Link>
                <span className="text-xs text-muted">
                  gen {child.bornGeneration} · {child.validationStatus.toLowerCase()} ·{" "}
                  {child.reviewStatus.toLowerCase()}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="trajectories-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="trajectories-heading" className="text-base font-semibold">
            Trajectories across generations
          </h2>
          <nav aria-label="Trajectory filters" className="flex flex-wrap gap-4 text-sm">
            <span className="flex gap-2">
              <span className="text-muted">Purpose:</span>
              {([null, "TRAIN", "EVAL", "VALIDATION"] as const).map((p) => (
                <Link
                  key={p ?? "all"}
                  href={withQuery(taskPath, { ...query, purpose: p ? purposeLabel[p] : null })}
                  aria-current={purpose === p ? "page" : undefined}
                  className={
                    purpose === p ? "font-semibold text-fg" : "text-accent hover:underline"
                  }
                >
                  {p ? purposeLabel[p] : "all"}
                </Link>
              ))}
            </span>
            <Link
              href={withQuery(taskPath, { ...query, order: order === "asc" ? null : "asc" })}
              className="text-accent hover:underline"
            >
              {order === "asc" ? "Newest generation first" : "Oldest generation first"}
            </Link>
          </nav>
        </div>
        {trajectories.rows.length === 0 ? (
          <EmptyState title="No trajectories">
            {after
              ? "Nothing after this point."
              : "This task has not been attempted with this filter yet."}
          </EmptyState>
        ) : (
          <TrajectoryTable
            rows={trajectories.rows}
            basePath={basePath}
            taskId={task.id}
            groupSize={groupSize}
            order={order}
          />
        )}
        {(after || trajectories.next) && (
          <nav aria-label="Trajectory pages" className="flex gap-4 text-sm">
            {after && (
              <Link href={withQuery(taskPath, query)} className="text-accent hover:underline">
                First page
              </Link>
            )}
            {trajectories.next && (
              <Link
                href={withQuery(taskPath, {
                  ...query,
                  after: formatTrajectoryCursor(trajectories.next),
                })}
                className="text-accent hover:underline"
              >
                Next page
              </Link>
            )}
          </nav>
        )}
      </section>
    </div>
  );
}

function Lineage({
  chain,
  basePath,
  currentId,
}: {
  chain: LineageEntry[];
  basePath: string;
  currentId: number;
}) {
  if (chain.length === 1 && chain[0]!.parentTaskId === null) {
    return (
      <p className="text-sm text-muted">
        This task has no parent: it is a {originLabel[chain[0]!.origin]} task.
      </p>
    );
  }
  return (
    <ol aria-label="Lineage, oldest first" className="space-y-0">
      {chain.map((entry, i) => {
        const isCurrent = entry.id === currentId;
        return (
          <li key={entry.id} className="relative border-l-2 border-border pb-4 pl-5 last:pb-0">
            <span
              aria-hidden="true"
              className={`absolute top-1.5 -left-[7px] h-3 w-3 rounded-full border-2 ${
                isCurrent ? "border-accent bg-accent" : "border-border bg-bg"
              }`}
            />
            {i > 0 && (
              <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-muted">
                <Badge tone="info">{entry.relation ?? "derived"}</Badge>
                <span>of the task above</span>
                {entry.signal ? (
                  <SignalSummary signal={entry.signal} />
                ) : entry.signalKind ? (
                  <Badge>{entry.signalKind.toLowerCase()} signal</Badge>
                ) : null}
                {entry.trigger && (
                  <Link
                    href={runPaths.trajectory(basePath, entry.trigger.id)}
                    className="text-accent hover:underline"
                  >
                    Trigger trajectory #{entry.trigger.id} (generation{" "}
                    {entry.trigger.generationIndex}, {purposeLabel[entry.trigger.purpose]} sample{" "}
                    {entry.trigger.sampleIndex}, reward {formatNumber(entry.trigger.reward)})
                  </Link>
                )}
              </div>
            )}
            <div className="flex flex-wrap items-baseline gap-2 text-sm">
              <span className="text-xs text-muted tabular-nums">
                gen {entry.bornGeneration} · {originLabel[entry.origin]}
              </span>
              {isCurrent ? (
                <span aria-current="true" className="font-medium">
                  {entry.instruction} <span className="text-xs text-muted">(this task)</span>
                </span>
              ) : (
                <Link
                  href={runPaths.task(basePath, entry.id)}
                  className="text-accent hover:underline"
                >
                  {entry.instruction}
                </Link>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function TrajectoryTable({
  rows,
  basePath,
  taskId,
  groupSize,
  order,
}: {
  rows: TaskTrajectoryRow[];
  basePath: string;
  taskId: number;
  groupSize: number;
  order: "asc" | "desc";
}) {
  const segments = segmentByGroup(rows, groupSize);
  return (
    <Table
      caption={`Trajectories of this task by GRPO group, ${order === "asc" ? "oldest" : "newest"} generation first`}
    >
      <TableHead>
        <Th align="right">Sample</Th>
        <Th align="right">Reward</Th>
        <Th>Outcome</Th>
        <Th align="right">Steps</Th>
        <Th align="right">Mean entropy</Th>
        <Th align="right">Advantage</Th>
        <Th align="right">Policy</Th>
      </TableHead>
      {segments.map((segment) => (
        <GroupSegmentRows
          key={`${segment.generationIndex}.${segment.purpose}.${segment.slot}`}
          segment={segment}
          basePath={basePath}
          taskId={taskId}
          groupSize={groupSize}
        />
      ))}
    </Table>
  );
}

function GroupSegmentRows({
  segment,
  basePath,
  taskId,
  groupSize,
}: {
  segment: GroupSegment<TaskTrajectoryRow>;
  basePath: string;
  taskId: number;
  groupSize: number;
}) {
  const purpose = segment.purpose as TrajectoryPurpose;
  const isTrain = purpose === "TRAIN";
  const groupHref = withQuery(runPaths.group(basePath, segment.generationIndex, taskId), {
    purpose: isTrain ? null : purposeLabel[purpose],
    slot: segment.slot > 0 ? String(segment.slot) : null,
  });
  const label = `Generation ${segment.generationIndex}, ${purposeLabel[purpose]}${
    isTrain ? `, pool slot ${segment.slot + 1}` : ""
  }`;
  // Builtin runs store no advantages; a whole training group on the page can show what GRPO used.
  const canCompute =
    isTrain && segment.rows.length === groupSize && segment.rows.every((r) => r.advantage === null);
  const computed = canCompute ? groupRewardStats(segment.rows.map((r) => r.reward)) : null;
  const successes = segment.rows.filter((r) => r.success).length;
  return (
    <tbody>
      <tr className="border-t border-border bg-panel/60">
        <th scope="rowgroup" colSpan={7} className="px-3 py-1.5 text-left text-xs font-medium">
          <span className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
            <span>{label}</span>
            <span className="font-normal text-muted tabular-nums">
              {successes} of {segment.rows.length} succeeded
              {computed && ` · mean reward ${formatNumber(computed.mean)}`}
              {computed?.isFlat && " · no gradient"}
            </span>
            <Link
              href={groupHref}
              aria-label={`Compare group: ${label}`}
              className="font-normal text-accent hover:underline"
            >
              Compare group
            </Link>
          </span>
        </th>
      </tr>
      {segment.rows.map((row, i) => (
        <Tr key={row.id}>
          <RowTh align="right" className="tabular-nums">
            <Link
              href={runPaths.trajectory(basePath, row.id)}
              className="text-accent hover:underline"
              aria-label={`Trajectory ${row.id}: generation ${row.generationIndex}, ${purposeLabel[row.purpose]} sample ${row.sampleIndex}`}
            >
              #{row.sampleIndex}
            </Link>
          </RowTh>
          <Td align="right" className="tabular-nums">
            {formatNumber(row.reward)}
          </Td>
          <Td>
            <SuccessBadge success={row.success} />
            {row.sideEffect && (
              <span className="ml-1">
                <Badge tone="warn">side effect</Badge>
              </span>
            )}
          </Td>
          <Td align="right" className="tabular-nums">
            {row.stepCount}
          </Td>
          <Td align="right" className="tabular-nums">
            {formatNumber(row.meanEntropy)}
          </Td>
          <Td align="right" className="tabular-nums">
            {row.advantage !== null ? (
              formatSigned(row.advantage)
            ) : computed ? (
              <span title="computed from the group's rewards">
                {formatSigned(computed.advantages[i])}
              </span>
            ) : (
              "—"
            )}
          </Td>
          <Td align="right" className="text-muted tabular-nums">
            v{row.policyVersion}
          </Td>
        </Tr>
      ))}
    </tbody>
  );
}

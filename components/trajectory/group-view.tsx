import Link from "next/link";
import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { cx } from "@/components/ui/table";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";
import { getGroup, type TrajectoryDetail } from "@/lib/db/queries/trajectories";
import { alignRollouts, divergenceText, groupRewardStats } from "@/lib/trajectories/divergence";
import { splitIntoGroups } from "@/lib/trajectories/groups";
import {
  RunBreadcrumb,
  SuccessBadge,
  canonicalArgs,
  firstParam,
  formatNumber,
  formatSigned,
  groupSizeOf,
  parsePurpose,
  purposeLabel,
  withQuery,
} from "./view-parts";

export type GroupViewProps = RunViewContext & {
  generationIndex: number;
  taskId: number;
  searchParams: ViewSearchParams;
};

/**
 * All rollouts of one task in one generation side by side: where they part ways, and what the
 * trainer could learn from them (GRPO normalizes rewards within the group).
 */
export async function GroupView({
  run,
  basePath,
  generationIndex,
  taskId,
  searchParams,
}: GroupViewProps) {
  const purpose = parsePurpose(searchParams.purpose) ?? "TRAIN";
  const group = await getGroup({ runId: run.id, generationIndex, taskId, purpose });
  if (!group) notFound();

  const groupSize = purpose === "TRAIN" ? groupSizeOf(run) : Number.MAX_SAFE_INTEGER;
  const slots = splitIntoGroups(group.rollouts, groupSize);
  const slotParam = firstParam(searchParams.slot);
  const requestedSlot = slotParam === undefined ? null : Number(slotParam);
  const current = requestedSlot === null ? slots[0] : slots.find((s) => s.slot === requestedSlot);
  if (requestedSlot !== null && !current) notFound();

  const groupPath = runPaths.group(basePath, generationIndex, taskId);
  const purposeQuery = purpose === "TRAIN" ? null : purposeLabel[purpose];
  const title = `Group: task ${taskId}, generation ${generationIndex}`;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <RunBreadcrumb
          run={run}
          basePath={basePath}
          trail={[
            {
              label: `Generation ${generationIndex}`,
              href: runPaths.generation(basePath, generationIndex),
            },
            { label: `Task ${taskId}`, href: runPaths.task(basePath, taskId) },
            { label: "Group" },
          ]}
        />
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        <p className="text-sm">
          <span className="text-muted">Task: </span>
          <Link href={runPaths.task(basePath, taskId)} className="text-accent hover:underline">
            {group.task.instruction}
          </Link>{" "}
          <span className="text-xs text-muted">
            ({group.task.skill}, level {group.task.level})
          </span>
        </p>
        <nav aria-label="Rollout purpose" className="flex flex-wrap gap-3 text-sm">
          {(["TRAIN", "EVAL"] as const).map((p) => (
            <Link
              key={p}
              href={withQuery(groupPath, { purpose: p === "TRAIN" ? null : purposeLabel[p] })}
              aria-current={p === purpose ? "page" : undefined}
              className={p === purpose ? "font-semibold" : "text-accent hover:underline"}
            >
              {p === "TRAIN" ? "Training rollouts" : "Evaluation rollouts"}
            </Link>
          ))}
        </nav>
        {slots.length > 1 && (
          <nav aria-label="GRPO groups of this task" className="flex flex-wrap gap-3 text-sm">
            {slots.map((s) => (
              <Link
                key={s.slot}
                href={withQuery(groupPath, {
                  purpose: purposeQuery,
                  slot: s.slot > 0 ? String(s.slot) : null,
                })}
                aria-current={s.slot === current?.slot ? "page" : undefined}
                className={
                  s.slot === current?.slot ? "font-semibold" : "text-accent hover:underline"
                }
              >
                Pool slot {s.slot + 1} (samples {s.members[0]!.sampleIndex}–
                {s.members.at(-1)!.sampleIndex})
              </Link>
            ))}
          </nav>
        )}
      </header>

      {!current ? (
        <EmptyState title={`No ${purposeLabel[purpose]} rollouts`}>
          This task was not rolled out for {purposeLabel[purpose]} in generation {generationIndex}.
        </EmptyState>
      ) : (
        <GroupComparison rollouts={current.members} basePath={basePath} />
      )}
    </div>
  );
}

function GroupComparison({
  rollouts,
  basePath,
}: {
  rollouts: TrajectoryDetail[];
  basePath: string;
}) {
  const alignment = alignRollouts(rollouts.map((r) => r.steps));
  const stats = groupRewardStats(rollouts.map((r) => r.reward));
  const hasStoredAdvantages = rollouts.every((r) => r.advantage !== null);
  const advantages = hasStoredAdvantages
    ? rollouts.map((r) => r.advantage as number)
    : stats.advantages;
  const successes = rollouts.filter((r) => r.success).length;

  return (
    <>
      <section aria-labelledby="group-summary-heading" className="space-y-2">
        <h2 id="group-summary-heading" className="sr-only">
          Group summary
        </h2>
        <p
          className={cx(
            "rounded-lg border px-4 py-3 text-sm font-semibold",
            alignment.firstDivergence === null
              ? "border-border"
              : "border-amber-600/40 bg-amber-500/10",
          )}
          data-testid="divergence"
        >
          {divergenceText(alignment, rollouts.length)}
        </p>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border border-border px-4 py-3 text-sm sm:grid-cols-5">
          <div>
            <dt className="text-xs text-muted">Rollouts</dt>
            <dd className="font-medium tabular-nums">{rollouts.length}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Successes</dt>
            <dd className="font-medium tabular-nums">
              {successes} of {rollouts.length}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Mean reward</dt>
            <dd className="font-medium tabular-nums">{formatNumber(stats.mean, 3)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Reward std</dt>
            <dd className="font-medium tabular-nums">{formatNumber(stats.std, 3)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Gradient</dt>
            <dd className="font-medium">
              {stats.isFlat ? (
                <Badge tone="warn">no gradient from this group</Badge>
              ) : (
                <Badge tone="good">informative</Badge>
              )}
            </dd>
          </div>
        </dl>
        <p className="text-xs text-muted">
          GRPO scores each rollout by (reward − mean) / std within its group.
          {stats.isFlat && " Every reward here is equal, so every advantage is 0."}
          {!hasStoredAdvantages &&
            " Advantages below are computed from these rewards as the builtin trainer does."}
        </p>
      </section>

      <section aria-labelledby="grid-heading" className="space-y-2">
        <h2 id="grid-heading" className="text-base font-semibold">
          Rollouts side by side
        </h2>
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full border-collapse text-left text-xs">
            <caption className="sr-only">
              Rollouts side by side: one column per sample, one row per step
            </caption>
            <thead className="bg-panel text-muted">
              <tr>
                <th scope="col" className="w-24 px-2 py-2 font-medium">
                  Step
                </th>
                {rollouts.map((r) => (
                  <th key={r.id} scope="col" className="min-w-36 px-2 py-2 font-medium">
                    <Link
                      href={runPaths.trajectory(basePath, r.id)}
                      className="text-accent hover:underline"
                    >
                      Sample {r.sampleIndex}
                    </Link>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <SummaryRow
                label="Reward"
                rollouts={rollouts}
                render={(r) => formatNumber(r.reward)}
              />
              <SummaryRow
                label="Outcome"
                rollouts={rollouts}
                render={(r) => <SuccessBadge success={r.success} />}
              />
              <SummaryRow
                label="Advantage"
                rollouts={rollouts}
                render={(_, i) => formatSigned(advantages[i])}
              />
              <SummaryRow label="Steps" rollouts={rollouts} render={(r) => String(r.stepCount)} />
              {alignment.rows.map((row) => {
                const isFirstDivergence = row.position === alignment.firstDivergence;
                return (
                  <tr
                    key={row.position}
                    className={cx(
                      "border-t border-border align-top",
                      isFirstDivergence &&
                        "bg-amber-500/10 outline-2 -outline-offset-2 outline-amber-500",
                      !row.isAligned && !isFirstDivergence && "bg-amber-500/5",
                    )}
                  >
                    <th scope="row" className="px-2 py-1.5 font-medium whitespace-nowrap">
                      Step {row.position + 1}
                      {isFirstDivergence ? (
                        <span className="ml-1 rounded border border-amber-700/40 px-1 text-amber-800 dark:text-amber-200">
                          diverges
                        </span>
                      ) : row.isAligned ? (
                        <span className="ml-1 text-muted" title="all samples agree">
                          =<span className="sr-only"> all samples agree</span>
                        </span>
                      ) : null}
                    </th>
                    {rollouts.map((r, i) => {
                      const step = r.steps[row.position];
                      const isOdd = !row.isAligned && row.keys[i] !== row.majority;
                      return (
                        <td
                          key={r.id}
                          className={cx(
                            "max-w-56 px-2 py-1.5",
                            isOdd && "border-l-2 border-amber-500",
                          )}
                        >
                          {isOdd && <span className="sr-only">Differs from most samples: </span>}
                          {step ? (
                            <span className={step.isError ? "text-red-700 dark:text-red-300" : ""}>
                              <code className="font-mono font-semibold">{step.tool}</code>
                              {step.isError && <span className="sr-only"> (error)</span>}
                              <span
                                className="block truncate font-mono text-muted"
                                title={canonicalArgs(step.arguments)}
                              >
                                {canonicalArgs(step.arguments)}
                              </span>
                            </span>
                          ) : (
                            <span className="text-muted">ended</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p className="text-xs text-muted">
          Cells show the tool and its arguments; an amber edge marks a sample that acted differently
          from most samples at that step.
        </p>
      </section>
    </>
  );
}

function SummaryRow({
  label,
  rollouts,
  render,
}: {
  label: string;
  rollouts: TrajectoryDetail[];
  render: (rollout: TrajectoryDetail, i: number) => ReactNode;
}) {
  return (
    <tr className="border-t border-border bg-panel/50">
      <th scope="row" className="px-2 py-1.5 font-medium">
        {label}
      </th>
      {rollouts.map((r, i) => (
        <td key={r.id} className="px-2 py-1.5 tabular-nums">
          {render(r, i)}
        </td>
      ))}
    </tr>
  );
}

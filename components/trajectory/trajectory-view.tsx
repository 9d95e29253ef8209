import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import {
  runPaths,
  type RunViewContext,
  type ViewSearchParams,
} from "@/components/run/view-context";
import type { TrajectoryStep } from "@/lib/engine/types";
import { getTrajectory, listGroupMembers } from "@/lib/db/queries/trajectories";
import { groupRewardStats } from "@/lib/trajectories/divergence";
import { redactEndpoints } from "@/lib/share/redact";
import { groupNeighbours, groupSlotOf } from "@/lib/trajectories/groups";
import { SampleKeys } from "./sample-keys";
import {
  Fact,
  FactGrid,
  JsonBlock,
  RunBreadcrumb,
  ShareBar,
  SuccessBadge,
  formatNumber,
  formatSigned,
  groupSizeOf,
  purposeLabel,
  withQuery,
} from "./view-parts";

export type TrajectoryViewProps = RunViewContext & {
  trajectoryId: string;
  searchParams: ViewSearchParams;
};

/** One rollout, step by step: what the policy chose, how sure it was, and what the world said. */
export async function TrajectoryView({ run, basePath, canAct, trajectoryId }: TrajectoryViewProps) {
  const trajectory = await getTrajectory({ runId: run.id, trajectoryId });
  if (!trajectory) notFound();
  const members = await listGroupMembers({
    runId: run.id,
    generationIndex: trajectory.generationIndex,
    taskId: trajectory.taskId,
    purpose: trajectory.purpose,
  });
  // Evaluation and validation samples of a task form one set; training ones split into groups of G.
  const groupSize = trajectory.purpose === "TRAIN" ? groupSizeOf(run) : Number.MAX_SAFE_INTEGER;
  const slot = groupSlotOf(trajectory.sampleIndex, groupSize);
  const { previous, next, position, size } = groupNeighbours(
    members,
    trajectory.sampleIndex,
    groupSize,
  );
  // Builtin runs store no advantage; the trainer's is (reward − mean) / std over this slot's group.
  const slotMembers = members.filter((m) => groupSlotOf(m.sampleIndex, groupSize) === slot);
  const computedAdvantage =
    trajectory.advantage === null && trajectory.purpose === "TRAIN" && slotMembers.length > 1
      ? groupRewardStats(slotMembers.map((m) => m.reward)).advantages[position]
      : undefined;
  const groupHref = withQuery(
    runPaths.group(basePath, trajectory.generationIndex, trajectory.taskId),
    {
      purpose: trajectory.purpose === "TRAIN" ? null : purposeLabel[trajectory.purpose],
      slot: slot > 0 ? String(slot) : null,
    },
  );
  const title = `Trajectory ${trajectory.id}`;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <RunBreadcrumb
          run={run}
          basePath={basePath}
          trail={[
            {
              label: `Generation ${trajectory.generationIndex}`,
              href: runPaths.generation(basePath, trajectory.generationIndex),
            },
            {
              label: `Task ${trajectory.taskId}`,
              href: runPaths.task(basePath, trajectory.taskId),
            },
            { label: title },
          ]}
        />
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 space-y-1">
            <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
            <p className="text-sm">
              <span className="text-muted">Task: </span>
              <Link
                href={runPaths.task(basePath, trajectory.taskId)}
                className="text-accent hover:underline"
              >
                {trajectory.taskInstruction}
              </Link>{" "}
              <span className="text-xs text-muted">
                ({trajectory.taskSkill}, level {trajectory.taskLevel})
              </span>
            </p>
          </div>
          <nav aria-label="Samples of this group" className="flex items-center gap-2 text-sm">
            {previous ? (
              <Link
                href={runPaths.trajectory(basePath, previous.id)}
                rel="prev"
                aria-keyshortcuts="k"
                className="rounded-md border border-border px-2 py-1 hover:bg-panel"
              >
                ← Previous sample
              </Link>
            ) : (
              <span className="rounded-md border border-border px-2 py-1 text-muted">
                No previous sample
              </span>
            )}
            <span className="text-xs text-muted tabular-nums">
              {position + 1} of {size}
            </span>
            {next ? (
              <Link
                href={runPaths.trajectory(basePath, next.id)}
                rel="next"
                aria-keyshortcuts="j"
                className="rounded-md border border-border px-2 py-1 hover:bg-panel"
              >
                Next sample →
              </Link>
            ) : (
              <span className="rounded-md border border-border px-2 py-1 text-muted">
                No next sample
              </span>
            )}
            <Link href={groupHref} aria-keyshortcuts="g" className="text-accent hover:underline">
              Compare the group
            </Link>
          </nav>
          <SampleKeys
            previousHref={previous ? runPaths.trajectory(basePath, previous.id) : null}
            nextHref={next ? runPaths.trajectory(basePath, next.id) : null}
            groupHref={groupHref}
          />
        </div>
      </header>

      <FactGrid label="Trajectory facts">
        <Fact term="Generation">{trajectory.generationIndex}</Fact>
        <Fact term="Purpose">{purposeLabel[trajectory.purpose]}</Fact>
        <Fact term="Sample">{trajectory.sampleIndex}</Fact>
        <Fact term="Policy">v{trajectory.policyVersion}</Fact>
        <Fact term="Reward">{formatNumber(trajectory.reward)}</Fact>
        <Fact term="Outcome">
          <SuccessBadge success={trajectory.success} />
        </Fact>
        <Fact term="Advantage">
          {computedAdvantage !== undefined ? (
            <>
              {formatSigned(computedAdvantage)}{" "}
              <span className="text-xs font-normal text-muted">computed from the group</span>
            </>
          ) : (
            formatSigned(trajectory.advantage)
          )}
        </Fact>
        <Fact term="Side effect">{trajectory.sideEffect ? "yes" : "no"}</Fact>
        <Fact term="End reason">
          {trajectory.endReason === "agent_error"
            ? "agent error (the endpoint failed)"
            : (trajectory.endReason ?? "—")}
        </Fact>
        <Fact term="Steps">{trajectory.stepCount}</Fact>
        {trajectory.promptTokens !== null && trajectory.completionTokens !== null && (
          <Fact term="Tokens">
            {trajectory.promptTokens.toLocaleString("en-US")} prompt ·{" "}
            {trajectory.completionTokens.toLocaleString("en-US")} completion
          </Fact>
        )}
        <Fact term="Mean entropy">{formatNumber(trajectory.meanEntropy)}</Fact>
        <Fact term="Answer">
          {trajectory.answer === null ? (
            <span className="text-muted">—</span>
          ) : (
            <span className="font-mono text-xs">{trajectory.answer}</span>
          )}
        </Fact>
      </FactGrid>

      {(trajectory.failure || trajectory.error) && (
        <div className="grid gap-3 text-sm sm:grid-cols-2">
          {trajectory.failure && (
            <p className="rounded-lg border border-amber-600/30 px-4 py-3">
              <span className="block text-xs text-muted">Failure reason</span>
              {trajectory.failure}
            </p>
          )}
          {trajectory.error && (
            <p className="rounded-lg border border-red-600/30 px-4 py-3">
              <span className="block text-xs text-muted">Error</span>
              <span className="text-red-700 dark:text-red-300">
                {canAct ? trajectory.error : redactEndpoints(trajectory.error)}
              </span>
            </p>
          )}
        </div>
      )}

      <section aria-labelledby="steps-heading" className="space-y-3">
        <h2 id="steps-heading" className="text-base font-semibold">
          Steps
        </h2>
        {trajectory.steps.length === 0 ? (
          <EmptyState title="No steps">The agent took no action in this episode.</EmptyState>
        ) : (
          <ol aria-label="Steps" className="space-y-3">
            {trajectory.steps.map((step, position) => (
              <StepItem key={position} step={step} position={position} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** Entropy relative to the most it could be with this many candidates (a uniform choice). */
function entropyShare(step: TrajectoryStep): number | null {
  if (step.entropy === null) return null;
  const count = step.candidateCount ?? 0;
  return count > 1 ? step.entropy / Math.log(count) : 0;
}

function StepItem({ step, position }: { step: TrajectoryStep; position: number }) {
  const share = entropyShare(step);
  return (
    <li
      className={`rounded-lg border px-4 py-3 ${
        step.isError ? "border-red-600/40 bg-red-600/5" : "border-border"
      }`}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <h3 className="text-sm font-semibold">
            <span className="text-muted tabular-nums">Step {position + 1}:</span>{" "}
            <code className="font-mono">{step.tool}</code>
          </h3>
          {step.isError && <Badge tone="bad">error</Badge>}
        </div>
        <dl className="flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-muted">
          <div className="flex items-center gap-2">
            <dt>Probability</dt>
            <dd className="flex items-center gap-1.5 font-medium text-fg tabular-nums">
              {step.probability === null ? "—" : formatNumber(step.probability, 3)}
              {step.probability !== null && <ShareBar share={step.probability} />}
            </dd>
          </div>
          <div className="flex items-center gap-2">
            <dt>Entropy</dt>
            <dd className="flex items-center gap-1.5 font-medium text-fg tabular-nums">
              {formatNumber(step.entropy, 3)}
              {share !== null && <ShareBar share={share} tone="amber" />}
            </dd>
          </div>
          {step.candidateCount !== null && (
            <div className="flex items-center gap-2">
              <dt>Candidates</dt>
              <dd className="font-medium text-fg tabular-nums">{step.candidateCount}</dd>
            </div>
          )}
        </dl>
      </div>
      <div className="mt-2 grid gap-3 lg:grid-cols-2">
        <JsonBlock label="Arguments" value={step.arguments} />
        <JsonBlock label="Observation" value={step.observation} />
      </div>
    </li>
  );
}

"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import type {
  GenerationProgress,
  RunProgress,
  StageProgress,
  StageState,
} from "@/lib/db/queries/generations";
import type { ActionResult } from "@/lib/actions/safe-action";
import { queryKeys } from "@/lib/query-keys";
import {
  cancelRoundAction,
  closeReviewAction,
  launchRoundAction,
  retryRoundAction,
} from "@/app/(dashboard)/actions";
import { formatDuration, stageLabel, statusText, statusTone } from "./format";

/** How often the panel asks for progress while a round is queued or running. */
const POLL_INTERVAL_MS = 1_000;

async function fetchProgress(slug: string, signal: AbortSignal): Promise<RunProgress> {
  const response = await fetch(`/api/runs/${encodeURIComponent(slug)}/progress`, {
    signal,
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  return (await response.json()) as RunProgress;
}

const intents = {
  launch: { action: launchRoundAction, pending: "Launching a round…" },
  cancel: { action: cancelRoundAction, pending: "Cancelling the round…" },
  retry: { action: retryRoundAction, pending: "Retrying the round…" },
  close: { action: closeReviewAction, pending: "Closing the review…" },
} as const;
type Intent = keyof typeof intents;
type PanelState = { intent: Intent; result: ActionResult<{ message?: string }> } | null;

export type RoundPanelProps = {
  runId: number;
  slug: string;
  initialProgress: RunProgress;
};

/**
 * The live island of the run page: the latest round's stages, polled about once a second while it
 * is queued or running and not at all otherwise; the buttons that steer it. When the latest
 * generation changes status, the server-rendered parts of the page are refreshed.
 */
export function RoundPanel({ runId, slug, initialProgress }: RoundPanelProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const queryKey = queryKeys.runProgress(slug);
  const progress = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchProgress(slug, signal),
    initialData: initialProgress,
    // Fresh for a moment after the server read it, so mounting does not ask again at once.
    initialDataUpdatedAt: Date.parse(initialProgress.readAt),
    staleTime: POLL_INTERVAL_MS,
    refetchInterval: (query) => (query.state.data?.isRoundActive ? POLL_INTERVAL_MS : false),
    refetchIntervalInBackground: false,
  });
  const data = progress.data;
  const latest = data.generations[0];

  const statusKey = latest ? `${latest.index}:${latest.status}` : "none";
  const seenStatusKey = useRef(statusKey);
  useEffect(() => {
    if (seenStatusKey.current === statusKey) return;
    seenStatusKey.current = statusKey;
    // The timeline, header and charts are server-rendered: re-read them when the round moves.
    router.refresh();
  }, [statusKey, router]);

  const [state, dispatch, isPending] = useActionState<PanelState, Intent>(
    async (_previous, intent) => {
      const result = await intents[intent].action(null, { runId });
      // Refused or not, the page may be behind (another tab, another person): catch up at once.
      await queryClient.invalidateQueries({ queryKey });
      return { intent, result };
    },
    null,
  );
  const [requested, setRequested] = useState<Intent | null>(null);
  const run = (intent: Intent) => {
    setRequested(intent);
    startTransition(() => dispatch(intent));
  };

  const isArchived = data.runStatus === "ARCHIVED";
  const isActive = data.isRoundActive;
  const status = latest?.status;
  const canLaunch = !isArchived && (status === "DONE" || status === "CANCELLED");
  const launchHint = launchHintOf(latest, isArchived);

  return (
    <section
      aria-labelledby="round-heading"
      className="rounded-lg border border-border bg-panel p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h2 id="round-heading" className="text-base font-semibold">
            {latest ? `Round: generation ${latest.index}` : "Round"}
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
            {latest ? (
              <>
                <span
                  className={`rounded border px-1.5 py-0.5 text-xs font-medium ${statusTone[latest.status]}`}
                >
                  {statusText(latest.status)}
                </span>
                <span>{describeLatest(latest)}</span>
              </>
            ) : (
              "This run has no generation yet."
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {!isArchived && (
            <button
              type="button"
              onClick={() => run("launch")}
              disabled={!canLaunch || isPending}
              aria-describedby={launchHint ? "round-hint" : undefined}
              className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg shadow-sm hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50"
            >
              Launch round
            </button>
          )}
          {status === "FAILED" && !isArchived && (
            <SecondaryButton onClick={() => run("retry")} disabled={isPending}>
              Retry round
            </SecondaryButton>
          )}
          {status === "AWAITING_REVIEW" && (
            <SecondaryButton onClick={() => run("close")} disabled={isPending}>
              Close review
            </SecondaryButton>
          )}
          {(isActive || status === "AWAITING_REVIEW") && (
            <SecondaryButton onClick={() => run("cancel")} disabled={isPending}>
              Cancel round
            </SecondaryButton>
          )}
        </div>
      </div>
      {launchHint && (
        <p id="round-hint" className="mt-2 text-xs text-muted">
          {launchHint}
        </p>
      )}

      {latest && <StageList generation={latest} />}

      {latest?.error && latest.status === "FAILED" && (
        <p className="mt-3 rounded-md border border-red-600/30 bg-red-600/10 px-3 py-2 text-sm text-red-700 dark:text-red-300">
          <span className="font-medium">Error: </span>
          {latest.error}
        </p>
      )}

      <p role="status" aria-live="polite" className="mt-3 min-h-5 text-sm">
        {isPending && requested ? (
          <span className="text-muted">{intents[requested].pending}</span>
        ) : (
          statusMessage(state)
        )}
      </p>
      {progress.isError && (
        <p className="text-xs text-muted">
          Live progress is unavailable ({progress.error.message}); retrying.
        </p>
      )}
    </section>
  );
}

function statusMessage(state: PanelState) {
  if (!state) return null;
  if (state.result.ok) return <span className="text-muted">{state.result.message}</span>;
  return <span className="text-red-700 dark:text-red-300">{state.result.error}</span>;
}

function launchHintOf(latest: GenerationProgress | undefined, isArchived: boolean): string | null {
  if (isArchived) return "This run is archived: its rounds can no longer be launched or steered.";
  if (!latest) return null;
  switch (latest.status) {
    case "QUEUED":
    case "RUNNING":
      return `A round is in progress (generation ${latest.index}); launch the next one when it is done.`;
    case "AWAITING_REVIEW":
      return `Generation ${latest.index} is waiting for its review; close the review first.`;
    case "FAILED":
      return `Generation ${latest.index} failed; retry it before launching another round.`;
    case "CANCELLED":
      return `Launching resumes generation ${latest.index} where it stopped.`;
    case "DONE":
      return null;
  }
}

function describeLatest(generation: GenerationProgress): string {
  const current = generation.stages.find((stage) => stage.state !== "done");
  switch (generation.status) {
    case "QUEUED":
      return "waiting for a worker";
    case "RUNNING":
      if (current?.waitingFor)
        return `${stageLabel[current.stage]} waits for the ${current.waitingFor}`;
      return current ? `${stageLabel[current.stage]} in progress` : "finishing";
    case "AWAITING_REVIEW":
      return "new tasks wait for review";
    case "FAILED":
      return current ? `failed in ${stageLabel[current.stage]}` : "failed";
    case "CANCELLED":
      return current ? `stopped before ${stageLabel[current.stage]}` : "stopped";
    case "DONE":
      return `finished in ${formatDuration(generation.startedAt, generation.finishedAt)}`;
  }
}

function SecondaryButton({
  onClick,
  disabled,
  children,
}: {
  onClick: () => void;
  disabled: boolean;
  children: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="rounded-md border border-border bg-bg px-3 py-1.5 text-sm font-medium hover:bg-panel disabled:cursor-not-allowed disabled:opacity-50"
    >
      {children}
    </button>
  );
}

const stateText: Record<StageState, string> = {
  done: "done",
  running: "running",
  queued: "queued",
  pending: "not started",
  waiting: "waiting for review",
  failed: "failed",
  stopped: "stopped",
};

const barTone: Record<StageState, string> = {
  done: "bg-emerald-600 dark:bg-emerald-500",
  running: "bg-accent",
  queued: "bg-accent/60",
  pending: "bg-accent/60",
  waiting: "bg-amber-500",
  failed: "bg-red-600",
  stopped: "bg-muted",
};

function StageList({ generation }: { generation: GenerationProgress }) {
  return (
    <ol className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
      {generation.stages.map((stage) => (
        <li key={stage.stage}>
          <StageBar stage={stage} />
        </li>
      ))}
    </ol>
  );
}

function StageBar({ stage }: { stage: StageProgress }) {
  const label = stageLabel[stage.stage];
  const max = Math.max(1, stage.total ?? 1);
  const now = Math.min(stage.done, max);
  const units = stage.total !== null && stage.total > 1 ? ` (${now} of ${max} batches)` : "";
  const stateLabel = stage.waitingFor
    ? `waiting for the ${stage.waitingFor}${stage.deadline ? ` until ${stage.deadline.slice(11, 16)} UTC` : ""}`
    : stateText[stage.state];
  const valueText = `${stateLabel}${units}`;
  const isIndeterminate = stage.state === "running" && stage.total === null;
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium">{label}</span>
        <span className="text-muted tabular-nums">
          {valueText}
          {stage.state === "done" && stage.startedAt && stage.finishedAt
            ? ` · ${formatDuration(stage.startedAt, stage.finishedAt)}`
            : null}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${label} progress`}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={now}
        aria-valuetext={valueText}
        className="h-1.5 overflow-hidden rounded-full bg-border"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ${barTone[stage.state]} ${
            isIndeterminate ? "w-1/3 animate-pulse" : ""
          }`}
          style={isIndeterminate ? undefined : { width: `${(now / max) * 100}%` }}
        />
      </div>
    </div>
  );
}

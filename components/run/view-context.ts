import type { RunDetail } from "@/lib/db/queries/runs";

/**
 * What every run-scoped view (overview, generation browser, task, trajectory, GRPO group) needs to
 * render for either audience: the dashboard (`/runs/<slug>`, may act) and a share link
 * (`/share/<token>`, read-only). Views build every link from `basePath`, so a shared page never
 * links out of its share; with `canAct` false they render no action control at all (no buttons,
 * no forms, no client islands bound to server actions).
 */
export type RunViewContext = {
  run: RunDetail;
  /** "/runs/<slug>" or "/share/<token>"; no trailing slash. */
  basePath: string;
  canAct: boolean;
};

/** Next's page searchParams, awaited. */
export type ViewSearchParams = Record<string, string | string[] | undefined>;

/** Links inside a run view; one place so dashboard and share pages agree on every path. */
export const runPaths = {
  overview: (basePath: string) => basePath,
  generation: (basePath: string, index: number) => `${basePath}/generations/${index}`,
  group: (basePath: string, index: number, taskId: number) =>
    `${basePath}/generations/${index}/groups/${taskId}`,
  task: (basePath: string, taskId: number) => `${basePath}/tasks/${taskId}`,
  trajectory: (basePath: string, trajectoryId: string | bigint) =>
    `${basePath}/trajectories/${trajectoryId}`,
};

/**
 * The statistics rows the charts are shaped from, as lib/db/queries/stats.ts returns them. Plain
 * data (no Dates, no bigints) so the shaped series cross the server → client boundary as they are.
 */

export type StatSplit = "TRAIN" | "HELDOUT";

/** One SkillStat row: a generation's policy on one skill × level of one split. */
export type SkillStatPoint = {
  runId: number;
  generation: number;
  split: StatSplit;
  skill: string;
  level: number;
  attempts: number;
  successes: number;
  envSteps: number;
};

/** One GenerationDataStat row: what a generation's new training tasks of one skill look like. */
export type DataStatPoint = {
  generation: number;
  skill: string;
  candidates: number;
  valid: number;
  invalid: number;
  approved: number;
  rejected: number;
  pending: number;
  signalForgetting: number;
  signalBoundary: number;
  signalRare: number;
  signalUniform: number;
  /** [min, q25, median, q75, max] of the valid new tasks' estimated difficulty; [] when none. */
  estimatedDifficultyQ: number[];
  /** The same for measured difficulty (filled once a policy attempted the tasks); [] when none. */
  measuredDifficultyQ: number[];
};

/** A share in 0–1, or null where nothing was attempted. */
export type Rate = number | null;

export const rateOf = (successes: number, attempts: number): Rate =>
  attempts > 0 ? successes / attempts : null;

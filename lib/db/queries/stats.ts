import "server-only";
import type { Pool } from "pg";
import type { TrainingBudgetPoint } from "@/lib/charts/budget";
import type { DataStatPoint, SkillStatPoint, StatSplit } from "@/lib/charts/types";
import { getPool } from "@/lib/db/pool";

/**
 * Chart reads. They touch only the statistics tables (SkillStat, GenerationDataStat) and scalar
 * Generation columns, never Task or Trajectory rows, so a run with millions of trajectories
 * charts as fast as a small one: a few rows per generation × skill × level.
 */

type Queryable = Pick<Pool, "query">;

export type ListSkillStatsOptions = {
  runIds: readonly number[];
  /** Both splits when absent. */
  split?: StatSplit;
  db?: Queryable;
};

/** SkillStat rows of several runs (one query), ordered by run, generation, skill, level. */
export async function listSkillStats(options: ListSkillStatsOptions): Promise<SkillStatPoint[]> {
  if (options.runIds.length === 0) return [];
  const db = options.db ?? getPool();
  const { rows } = await db.query<SkillStatPoint>(
    `SELECT g."runId", g.index AS generation, s.split, s.skill, s.level,
            s.attempts, s.successes, s."envSteps"
       FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
      WHERE g."runId" = ANY($1::int[]) AND ($2::"Split" IS NULL OR s.split = $2::"Split")
      ORDER BY g."runId", g.index, s.skill, s.level, s.split`,
    [options.runIds, options.split ?? null],
  );
  return rows;
}

export type ListDataStatsOptions = { runId: number; db?: Queryable };

/** GenerationDataStat rows of one run, by generation and skill. */
export async function listDataStats(options: ListDataStatsOptions): Promise<DataStatPoint[]> {
  const db = options.db ?? getPool();
  const { rows } = await db.query<DataStatPoint>(
    `SELECT g.index AS generation, d.skill, d.candidates, d.valid, d.invalid, d.approved,
            d.rejected, d.pending, d."signalForgetting", d."signalBoundary", d."signalRare",
            d."signalUniform", d."estimatedDifficultyQ", d."measuredDifficultyQ"
       FROM "GenerationDataStat" d JOIN "Generation" g ON g.id = d."generationId"
      WHERE g."runId" = $1
      ORDER BY g.index, d.skill`,
    [options.runId],
  );
  return rows;
}

export type HeldoutCurvePoint = { generation: number; rate: number };

export type ListHeldoutCurvesOptions = { runIds: readonly number[]; db?: Queryable };

/**
 * Overall held-out success per generation for many runs at once (the runs list's sparklines):
 * one grouped query over SkillStat, no query per run.
 */
export async function listHeldoutCurves(
  options: ListHeldoutCurvesOptions,
): Promise<Map<number, HeldoutCurvePoint[]>> {
  const curves = new Map<number, HeldoutCurvePoint[]>();
  if (options.runIds.length === 0) return curves;
  const db = options.db ?? getPool();
  const { rows } = await db.query<{ runId: number; generation: number; rate: number }>(
    `SELECT g."runId", g.index AS generation,
            sum(s.successes)::float8 / sum(s.attempts) AS rate
       FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
      WHERE g."runId" = ANY($1::int[]) AND s.split = 'HELDOUT'
      GROUP BY g."runId", g.index
     HAVING sum(s.attempts) > 0
      ORDER BY g."runId", g.index`,
    [options.runIds],
  );
  for (const row of rows) {
    const curve = curves.get(row.runId) ?? [];
    curve.push({ generation: row.generation, rate: row.rate });
    curves.set(row.runId, curve);
  }
  return curves;
}

export type ListTrainingBudgetOptions = { runIds: readonly number[]; db?: Queryable };

/** What each generation's round spent on training (0 for generation 0, which trains nothing). */
export async function listTrainingBudget(
  options: ListTrainingBudgetOptions,
): Promise<TrainingBudgetPoint[]> {
  if (options.runIds.length === 0) return [];
  const db = options.db ?? getPool();
  const { rows } = await db.query<TrainingBudgetPoint>(
    `SELECT "runId", index AS generation, "trainRollouts", "trainEnvSteps"
       FROM "Generation"
      WHERE "runId" = ANY($1::int[])
      ORDER BY "runId", index`,
    [options.runIds],
  );
  return rows;
}

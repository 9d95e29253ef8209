import type { PoolClient } from "pg";

/**
 * Recomputes a generation's data statistics (per skill: candidates, validation and review
 * outcomes, signal mix, difficulty quantiles of its new tasks). Reads only that generation's
 * tasks through the (generationId, …) indexes; review actions call it too.
 */
export async function refreshDataStats(
  client: Pick<PoolClient, "query">,
  generationId: number,
): Promise<void> {
  await client.query(`DELETE FROM "GenerationDataStat" WHERE "generationId" = $1`, [generationId]);
  await client.query(
    `INSERT INTO "GenerationDataStat" ("generationId", skill, candidates, valid, invalid, approved,
        rejected, pending, "signalForgetting", "signalBoundary", "signalRare", "signalUniform",
        "estimatedDifficultyQ", "measuredDifficultyQ")
     SELECT $1, skill, count(*),
            count(*) FILTER (WHERE "validationStatus" = 'VALID'),
            count(*) FILTER (WHERE "validationStatus" = 'INVALID'),
            count(*) FILTER (WHERE "reviewStatus" = 'APPROVED'),
            count(*) FILTER (WHERE "reviewStatus" = 'REJECTED'),
            count(*) FILTER (WHERE "reviewStatus" = 'PENDING'),
            count(*) FILTER (WHERE "signalKind" = 'FORGETTING'),
            count(*) FILTER (WHERE "signalKind" = 'BOUNDARY'),
            count(*) FILTER (WHERE "signalKind" = 'RARE'),
            count(*) FILTER (WHERE "signalKind" = 'UNIFORM' OR (origin = 'SYNTHESIZED' AND "signalKind" IS NULL)),
            coalesce(percentile_cont(ARRAY[0, 0.25, 0.5, 0.75, 1]) WITHIN GROUP (ORDER BY "estimatedDifficulty")
              FILTER (WHERE "validationStatus" = 'VALID'), '{}'),
            coalesce(percentile_cont(ARRAY[0, 0.25, 0.5, 0.75, 1]) WITHIN GROUP (ORDER BY "measuredDifficulty")
              FILTER (WHERE "measuredDifficulty" IS NOT NULL), '{}')
       FROM "Task"
      WHERE "generationId" = $1 AND split = 'TRAIN'
      GROUP BY skill`,
    [generationId],
  );
}

import type { Pool } from "pg";
import type { JsonObject, TrajectoryStep } from "@/lib/engine/types";

/**
 * Reads for exports, in keyset batches: each batch is one short query on a pooled connection, and
 * the next one runs only when the consumer asks for it, so a million rows never sit in memory and
 * a slow download holds no connection open.
 */

type Db = Pick<Pool, "query">;

export type ExportPurpose = "TRAIN" | "EVAL" | "VALIDATION";
export type ExportStatus = "approved" | "all";

export type ExportRun = {
  id: number;
  slug: string;
  name: string;
  environment: string;
  /** The stored run config (parse with parseRunConfig): which environment serves the tasks. */
  config: unknown;
};

export async function getExportRun(options: { db: Db; slug: string }): Promise<ExportRun | null> {
  const { rows } = await options.db.query<ExportRun>(
    `SELECT id, slug, name, environment, config FROM "Run" WHERE slug = $1`,
    [options.slug],
  );
  return rows[0] ?? null;
}

export type ExportGeneration = { id: number; index: number };

/** The run's generations in order, or just generation `index` ([] if it does not exist). */
export async function listExportGenerations(options: {
  db: Db;
  runId: number;
  index?: number | null;
}): Promise<ExportGeneration[]> {
  const hasIndex = options.index !== undefined && options.index !== null;
  const { rows } = await options.db.query<ExportGeneration>(
    `SELECT id, index FROM "Generation" WHERE "runId" = $1 ${hasIndex ? "AND index = $2" : ""}
      ORDER BY index`,
    hasIndex ? [options.runId, options.index] : [options.runId],
  );
  return rows;
}

export type ExportScope = {
  db: Db;
  runId: number;
  generations: readonly ExportGeneration[];
  purposes: readonly ExportPurpose[];
  status: ExportStatus;
};

const reviewFilter = (status: ExportStatus) =>
  status === "approved" ? `AND t."reviewStatus" = 'APPROVED'` : "";

export async function countExportTrajectories(scope: ExportScope): Promise<number> {
  const { rows } = await scope.db.query<{ count: string }>(
    `SELECT count(*) AS count FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
      WHERE tr."generationId" = ANY($1::int[]) AND tr.purpose::text = ANY($2::text[])
            ${reviewFilter(scope.status)}`,
    [scope.generations.map((g) => g.id), scope.purposes],
  );
  return Number(rows[0]!.count);
}

export type ExportTrajectoryRow = {
  generation: number;
  taskId: number;
  taskKey: string;
  skill: string;
  level: number;
  origin: string;
  instruction: string;
  purpose: ExportPurpose;
  sampleIndex: number;
  policyVersion: number;
  steps: TrajectoryStep[];
  reward: number;
  success: boolean;
  advantage: number | null;
  sideEffect: boolean;
  stepCount: number;
  answer: string | null;
  endReason: string | null;
  failure: string | null;
  error: string | null;
};

/**
 * Trajectories generation by generation, each in its unique index's order (task, purpose, sample),
 * so a GRPO group's samples come out together.
 */
export async function* iterateExportTrajectories(
  scope: ExportScope & { batchSize?: number },
): AsyncGenerator<ExportTrajectoryRow[]> {
  const batchSize = scope.batchSize ?? 1000;
  for (const generation of scope.generations) {
    let after: [number, string, number] = [0, "TRAIN", -1];
    for (;;) {
      const { rows } = await scope.db.query<ExportTrajectoryRow>(
        `SELECT $1::int AS generation, tr."taskId", t.key AS "taskKey", t.skill, t.level, t.origin,
                t.instruction, tr.purpose, tr."sampleIndex", tr."policyVersion", tr.steps,
                tr.reward, tr.success, tr.advantage, tr."sideEffect", tr."stepCount", tr.answer,
                tr."endReason", tr.failure, tr.error
           FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
          WHERE tr."generationId" = $2
            AND (tr."taskId", tr.purpose, tr."sampleIndex") > ($3, $4::"TrajectoryPurpose", $5)
            AND tr.purpose::text = ANY($6::text[]) ${reviewFilter(scope.status)}
          ORDER BY tr."taskId", tr.purpose, tr."sampleIndex"
          LIMIT $7`,
        [generation.index, generation.id, ...after, scope.purposes, batchSize],
      );
      if (rows.length === 0) break;
      yield rows;
      const last = rows[rows.length - 1]!;
      after = [last.taskId, last.purpose, last.sampleIndex];
      if (rows.length < batchSize) break;
    }
  }
}

export type ExportTaskScope = {
  db: Db;
  runId: number;
  /** Tasks born in these generations; null: the whole run. */
  generationIds: readonly number[] | null;
  status: ExportStatus;
};

export async function countExportTasks(scope: ExportTaskScope): Promise<number> {
  const { rows } = await scope.db.query<{ count: string }>(
    `SELECT count(*) AS count FROM "Task" t
      WHERE t."runId" = $1 AND t.split = 'TRAIN' AND ($2::int[] IS NULL OR t."generationId" = ANY($2))
            ${reviewFilter(scope.status)}`,
    [scope.runId, scope.generationIds],
  );
  return Number(rows[0]!.count);
}

export type ExportTaskRow = {
  id: number;
  key: string;
  fingerprint: string;
  generation: number;
  skill: string;
  level: number;
  estimatedDifficulty: number;
  origin: string;
  validationStatus: string;
  reviewStatus: string;
  instruction: string;
  spec: JsonObject;
};

/**
 * Training tasks only: the held-out set is regenerated from the run's seed, and importing it
 * into another run would collide with that run's own held-out tasks.
 */
export async function* iterateExportTasks(
  scope: ExportTaskScope & { batchSize?: number },
): AsyncGenerator<ExportTaskRow[]> {
  const batchSize = scope.batchSize ?? 1000;
  let after = 0;
  for (;;) {
    const { rows } = await scope.db.query<ExportTaskRow>(
      `SELECT t.id, t.key, t.fingerprint, g.index AS generation, t.skill, t.level, t."estimatedDifficulty",
              t.origin, t."validationStatus", t."reviewStatus", t.instruction, t.spec
         FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
        WHERE t."runId" = $1 AND t.split = 'TRAIN' AND t.id > $2
              AND ($3::int[] IS NULL OR t."generationId" = ANY($3)) ${reviewFilter(scope.status)}
        ORDER BY t.id LIMIT $4`,
      [scope.runId, after, scope.generationIds, batchSize],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < batchSize) return;
  }
}

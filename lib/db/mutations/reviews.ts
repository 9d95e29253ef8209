import type { Pool } from "pg";
import { AppError } from "@/lib/errors";
import { refreshDataStats } from "./data-stats";
import type { TaskFilter } from "@/lib/validations/task-filter";
import { taskFilterSql } from "../queries/task-filter";
import { withTransaction } from "../transaction";

export type ReviewSelection = { taskIds: number[] } | { filter: TaskFilter };

export type ReviewTasksOptions = {
  runId: number;
  generationIndex: number;
  selection: ReviewSelection;
  decision: "APPROVED" | "REJECTED" | "PENDING";
  note?: string | null;
  reviewer: string;
};

/**
 * One person's decision on one task, a selection, or everything matching a filter — one
 * set-based statement either way. Only valid tasks can be approved; only a generation whose review
 * is open (waiting for people) accepts decisions. "PENDING" undoes a decision.
 */
export async function reviewTasks(
  pool: Pool,
  options: ReviewTasksOptions,
): Promise<{ updated: number; skippedInvalid: number }> {
  return withTransaction(pool, async (client) => {
    const generation = await client.query<{ id: number; status: string }>(
      `SELECT g.id, g.status FROM "Generation" g
        WHERE g."runId" = $1 AND g.index = $2 FOR UPDATE`,
      [options.runId, options.generationIndex],
    );
    const gen = generation.rows[0];
    if (!gen) {
      throw new AppError(
        "NOT_FOUND",
        `Generation ${options.generationIndex} of this run does not exist.`,
      );
    }
    if (gen.status !== "AWAITING_REVIEW") {
      throw new AppError(
        "CONFLICT",
        `The review of generation ${options.generationIndex} is closed; its decisions can no longer change.`,
      );
    }
    const params: unknown[] = [gen.id];
    let selection: string;
    if ("taskIds" in options.selection) {
      params.push(options.selection.taskIds);
      selection = `t.id = ANY($2::int[])`;
    } else {
      const { conditions, params: filterParams } = taskFilterSql(options.selection.filter, 2);
      params.push(...filterParams);
      selection = conditions.length > 0 ? conditions.join(" AND ") : "TRUE";
    }
    const base = params.length;
    params.push(options.decision, options.reviewer, options.note ?? null);
    const { rows } = await client.query<{ updated: number; skipped: number }>(
      `WITH selected AS (
         SELECT t.id, t."validationStatus" FROM "Task" t
          WHERE t."generationId" = $1 AND t.split = 'TRAIN' AND ${selection}
       ), updated AS (
         UPDATE "Task" t
            SET "reviewStatus" = $${base + 1}::"ReviewStatus",
                reviewer = CASE WHEN $${base + 1} = 'PENDING' THEN NULL ELSE $${base + 2} END,
                "reviewNote" = CASE WHEN $${base + 1} = 'PENDING' THEN NULL ELSE $${base + 3} END,
                "reviewedAt" = CASE WHEN $${base + 1} = 'PENDING' THEN NULL ELSE now() END
           FROM selected s
          WHERE t.id = s.id AND s."validationStatus" = 'VALID'
         RETURNING t.id
       )
       SELECT (SELECT count(*) FROM updated)::int AS updated,
              (SELECT count(*) FROM selected WHERE "validationStatus" <> 'VALID')::int AS skipped`,
      params,
    );
    await refreshDataStats(client, gen.id);
    await client.query(
      `INSERT INTO "AuditEvent" ("runId", action, "targetType", "targetId", details)
       VALUES ($1, 'review.decide', 'generation', $2, $3)`,
      [
        options.runId,
        String(options.generationIndex),
        JSON.stringify({
          actor: options.reviewer,
          decision: options.decision,
          updated: rows[0]!.updated,
          selection: options.selection,
        }),
      ],
    );
    return { updated: rows[0]!.updated, skippedInvalid: rows[0]!.skipped };
  });
}

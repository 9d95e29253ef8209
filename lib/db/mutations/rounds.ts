import { randomBytes } from "node:crypto";
import type PgBoss from "pg-boss";
import type { Pool, PoolClient } from "pg";
import { AppError } from "@/lib/errors";
import { enqueueStage } from "@/lib/jobs/queue";
import { agentLabel, environmentLabel, type RunConfig } from "@/lib/validations/run-config";
import { withTransaction } from "../transaction";

/**
 * Writes that start, steer and stop rounds. Each one that starts work writes its row and enqueues
 * the job in the same transaction, so a crash between the two cannot lose the job; each status
 * change is guarded by the status it expects, so a double click or a race changes nothing twice.
 */

export type MutationContext = { pool: Pool; boss: PgBoss; actor?: string | null };

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "run"}-${randomBytes(3).toString("hex")}`;
}

async function audit(
  client: PoolClient,
  event: {
    runId: number;
    action: string;
    actor?: string | null;
    details?: Record<string, unknown>;
  },
) {
  await client.query(
    `INSERT INTO "AuditEvent" ("runId", action, "targetType", "targetId", details)
     VALUES ($1, $2, 'run', $3, $4)`,
    [
      event.runId,
      event.action,
      String(event.runId),
      JSON.stringify({ actor: event.actor ?? null, ...event.details }),
    ],
  );
}

export type CreateRunOptions = {
  name: string;
  config: RunConfig;
  compareGroup?: string | null;
  /** Launch rounds automatically until this generation (0: rounds are launched by people). */
  autoRounds?: number;
};

/** The run, its generation 0 (seed pool, held-out set, base policy evaluation) queued to compute. */
export async function createRun(
  ctx: MutationContext,
  options: CreateRunOptions,
): Promise<{ id: number; slug: string; generationId: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const slug = slugify(options.name);
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "compareGroup",
                          "autoRounds", "updatedAt")
       VALUES ($1, $2, $3::"RunMode", $4, $5, $6, $7, $8, $9, now()) RETURNING id`,
      [
        slug,
        options.name,
        options.config.mode.toUpperCase(),
        environmentLabel(options.config),
        agentLabel(options.config),
        options.config.seed,
        JSON.stringify(options.config),
        options.compareGroup ?? null,
        options.autoRounds ?? 0,
      ],
    );
    const runId = rows[0]!.id;
    const generation = await client.query<{ id: number }>(
      `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, 0, 'QUEUED', 'SEED')
       RETURNING id`,
      [runId],
    );
    const generationId = generation.rows[0]!.id;
    await enqueueStage(ctx.boss, client, { generationId, attempt: 0 });
    await audit(client, { runId, action: "run.create", actor: ctx.actor, details: { slug } });
    return { id: runId, slug, generationId };
  });
}

type LatestGeneration = { id: number; index: number; status: string; attempt: number };

async function lockRunAndLatest(
  client: PoolClient,
  runId: number,
): Promise<{ status: string; latest: LatestGeneration | null }> {
  // Every round-steering action of a run takes this lock first: 20 concurrent "Launch round"
  // clicks queue up here and all but the first find a round already in progress.
  const run = await client.query<{ status: string }>(
    `SELECT status FROM "Run" WHERE id = $1 FOR UPDATE`,
    [runId],
  );
  if (run.rowCount !== 1) throw new AppError("NOT_FOUND", `Run ${runId} does not exist.`);
  const latest = await client.query<LatestGeneration>(
    `SELECT id, index, status, attempt FROM "Generation" WHERE "runId" = $1 ORDER BY index DESC LIMIT 1`,
    [runId],
  );
  return { status: run.rows[0]!.status, latest: latest.rows[0] ?? null };
}

const IN_PROGRESS = new Set(["QUEUED", "RUNNING", "AWAITING_REVIEW"]);

/**
 * Starts the next round. A cancelled round is resumed where it stopped (its finished stages are
 * deterministic, so redoing them would give the same data); a failed one must be retried instead.
 */
export async function launchRound(
  ctx: MutationContext,
  options: { runId: number },
): Promise<{ generationId: number; index: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const { status, latest } = await lockRunAndLatest(client, options.runId);
    if (status === "ARCHIVED") throw new AppError("CONFLICT", "This run is archived.");
    if (!latest) throw new AppError("CONFLICT", "This run has no generation 0.");
    if (IN_PROGRESS.has(latest.status)) {
      throw new AppError(
        "CONFLICT",
        latest.status === "AWAITING_REVIEW"
          ? `Generation ${latest.index} is waiting for its review; close the review first.`
          : `A round is already in progress (generation ${latest.index} is ${latest.status.toLowerCase()}).`,
      );
    }
    if (latest.status === "FAILED") {
      throw new AppError(
        "CONFLICT",
        `Generation ${latest.index} failed; retry it before launching another round.`,
      );
    }
    let generationId: number;
    let index: number;
    let attempt: number;
    if (latest.status === "CANCELLED") {
      const resumed = await client.query<{ attempt: number }>(
        `UPDATE "Generation" SET status = 'QUEUED', attempt = attempt + 1, error = NULL, "finishedAt" = NULL
          WHERE id = $1 AND status = 'CANCELLED' RETURNING attempt`,
        [latest.id],
      );
      ({ id: generationId, index } = latest);
      attempt = resumed.rows[0]!.attempt;
    } else {
      const created = await client.query<{ id: number }>(
        `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, $2, 'QUEUED', 'ROLLOUT')
         RETURNING id`,
        [options.runId, latest.index + 1],
      );
      generationId = created.rows[0]!.id;
      index = latest.index + 1;
      attempt = 0;
      // From here on, the previous generation's review is closed: its pool is being trained on.
      await client.query(
        `UPDATE "Generation" SET "reviewClosedAt" = coalesce("reviewClosedAt", now()) WHERE id = $1`,
        [latest.id],
      );
    }
    await enqueueStage(ctx.boss, client, { generationId, attempt });
    await audit(client, {
      runId: options.runId,
      action: "round.launch",
      actor: ctx.actor,
      details: { index },
    });
    return { generationId, index };
  });
}

/** Stops a round in progress; running jobs notice within a batch and write nothing more. */
export async function cancelRound(
  ctx: MutationContext,
  options: { runId: number },
): Promise<{ index: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const { latest } = await lockRunAndLatest(client, options.runId);
    if (!latest || !IN_PROGRESS.has(latest.status)) {
      throw new AppError("CONFLICT", "No round is in progress, so there is nothing to cancel.");
    }
    await client.query(
      `UPDATE "Generation" SET status = 'CANCELLED', "finishedAt" = now(), error = 'cancelled by a person'
        WHERE id = $1`,
      [latest.id],
    );
    await audit(client, {
      runId: options.runId,
      action: "round.cancel",
      actor: ctx.actor,
      details: { index: latest.index },
    });
    return { index: latest.index };
  });
}

/** Resumes a failed round from the stage that failed. */
export async function retryRound(
  ctx: MutationContext,
  options: { runId: number },
): Promise<{ index: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const { latest } = await lockRunAndLatest(client, options.runId);
    if (!latest || latest.status !== "FAILED") {
      throw new AppError("CONFLICT", "Only a failed round can be retried.");
    }
    const { rows } = await client.query<{ attempt: number }>(
      `UPDATE "Generation" SET status = 'QUEUED', attempt = attempt + 1, error = NULL, "finishedAt" = NULL
        WHERE id = $1 RETURNING attempt`,
      [latest.id],
    );
    await enqueueStage(ctx.boss, client, { generationId: latest.id, attempt: rows[0]!.attempt });
    await audit(client, {
      runId: options.runId,
      action: "round.retry",
      actor: ctx.actor,
      details: { index: latest.index },
    });
    return { index: latest.index };
  });
}

/** Ends the manual review of a generation: undecided tasks stay out; the next pool is built. */
export async function closeReview(
  ctx: MutationContext,
  options: { runId: number },
): Promise<{ index: number }> {
  return withTransaction(ctx.pool, async (client) => {
    const { latest } = await lockRunAndLatest(client, options.runId);
    if (!latest || latest.status !== "AWAITING_REVIEW") {
      throw new AppError("CONFLICT", "No generation of this run is waiting for its review.");
    }
    await client.query(
      `UPDATE "Generation" SET status = 'RUNNING', "reviewClosedAt" = now() WHERE id = $1`,
      [latest.id],
    );
    await enqueueStage(ctx.boss, client, { generationId: latest.id, attempt: latest.attempt });
    await audit(client, {
      runId: options.runId,
      action: "review.close",
      actor: ctx.actor,
      details: { index: latest.index },
    });
    return { index: latest.index };
  });
}

export async function archiveRun(ctx: MutationContext, options: { runId: number }): Promise<void> {
  await withTransaction(ctx.pool, async (client) => {
    const { status, latest } = await lockRunAndLatest(client, options.runId);
    if (status === "ARCHIVED") return;
    if (latest && IN_PROGRESS.has(latest.status)) {
      throw new AppError("CONFLICT", "Cancel the round in progress before archiving the run.");
    }
    await client.query(
      `UPDATE "Run" SET status = 'ARCHIVED', "archivedAt" = now(), "updatedAt" = now() WHERE id = $1`,
      [options.runId],
    );
    await audit(client, { runId: options.runId, action: "run.archive", actor: ctx.actor });
  });
}

import { Pool } from "pg";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import {
  closeReview,
  cancelRound,
  createRun,
  launchRound,
  retryRound,
} from "@/lib/db/mutations/rounds";
import { reviewTasks } from "@/lib/db/mutations/reviews";
import { createBuiltinDeps } from "@/lib/engine/engine";
import { runInMemory } from "@/lib/engine/run";
import { parseRunConfig, type RunConfigInput } from "@/lib/validations/run-config";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/db";
import { createBoss, ensureQueues } from "./queue";
import { startWorker, type RunningWorker } from "./worker";

// A small but complete configuration: every stage runs, in a few seconds.
const SMALL: RunConfigInput = {
  seed: 7,
  tasksPerRound: 12,
  groupSize: 4,
  seedPoolSize: 12,
  heldoutPerCell: 1,
  synthesisBudget: 12,
};

let database: ScratchDatabase;
let pool: Pool;
let boss: PgBoss;
let worker: RunningWorker;
let failTrainOnce = false;

beforeAll(async () => {
  // Its own database: other test files' workers must not take this file's jobs.
  database = await createScratchDatabase("rounds");
  await migrate({ connectionString: database.url });
  pool = new Pool({ connectionString: database.url, max: 8 });
  pool.on("error", () => {}); // connections dropped when the scratch database is dropped
  boss = createBoss(database.url, "client");
  await boss.start();
  await ensureQueues(boss);
  worker = await startWorker({
    connectionString: database.url,
    depsFor: (config) => {
      const deps = createBuiltinDeps(config);
      return {
        ...deps,
        trainer: {
          id: deps.trainer.id,
          train: async (request) => {
            if (failTrainOnce) {
              failTrainOnce = false;
              throw new Error("injected trainer failure");
            }
            return deps.trainer.train(request);
          },
        },
      };
    },
  });
});

afterAll(async () => {
  await worker?.stop();
  await boss?.stop({ graceful: false });
  await pool?.end();
  await database?.drop();
});

type GenerationState = {
  status: string;
  stage: string;
  error: string | null;
  heldout: { success: number } | null;
};

async function generation(runId: number, index: number): Promise<GenerationState | undefined> {
  const { rows } = await pool.query<GenerationState>(
    `SELECT status, stage, error, heldout FROM "Generation" WHERE "runId" = $1 AND index = $2`,
    [runId, index],
  );
  return rows[0];
}

async function waitForStatus(
  runId: number,
  index: number,
  statuses: string[],
): Promise<GenerationState> {
  await expect
    .poll(async () => (await generation(runId, index))?.status, { timeout: 60_000, interval: 100 })
    .toBeOneOf(statuses);
  return (await generation(runId, index))!;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(sql, params);
  return rows[0]!.count;
}

const ctx = () => ({ pool, boss, actor: "test@example.com" });

describe("persisted rounds", () => {
  it("compute generation 0 and a round exactly as the in-memory engine does", async () => {
    const config = parseRunConfig({ ...SMALL, mode: "coevolve" });
    const run = await createRun(ctx(), { name: "Determinism", config });
    await waitForStatus(run.id, 0, ["DONE"]);
    await launchRound(ctx(), { runId: run.id });
    const done = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);
    expect(done.error).toBeNull();

    const memory = await runInMemory({ ...config, rounds: 1 });
    const gen0 = (await generation(run.id, 0))!;
    expect(gen0.heldout!.success).toBe(memory.result.heldout[0]!.success);
    expect(done.heldout!.success).toBe(memory.result.heldout[1]!.success);

    const heldoutTasks = memory.state.heldout.length;
    expect(
      await count(
        `SELECT count(*)::int FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
          WHERE g."runId" = $1 AND g.index = 0 AND tr.purpose = 'TRAIN'`,
        [run.id],
      ),
    ).toBe(12 * 4);
    expect(
      await count(
        `SELECT count(*)::int FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
          WHERE g."runId" = $1 AND tr.purpose = 'EVAL'`,
        [run.id],
      ),
    ).toBe(2 * heldoutTasks);
    const poolKeys = await pool.query<{ key: string }>(
      `SELECT t.key FROM "PoolEntry" p JOIN "Task" t ON t.id = p."taskId"
         JOIN "Generation" g ON g.id = p."generationId"
        WHERE g."runId" = $1 AND g.index = 1 ORDER BY p.position`,
      [run.id],
    );
    expect(poolKeys.rows.map((row) => row.key)).toEqual(memory.state.pool);

    // Lineage survives persistence: parents, signals and triggering trajectories resolve to rows
    // exactly where the engine recorded them (explore tasks have no parent).
    const lineage = await pool.query<{
      total: number;
      parents: number;
      signals: number;
      triggers: number;
    }>(
      `SELECT count(*)::int AS total,
              count(t."parentTaskId")::int AS parents,
              count(t."signalId")::int AS signals,
              count(t."triggerTrajectoryId")::int AS triggers
         FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
        WHERE g."runId" = $1 AND g.index = 1 AND t.origin = 'SYNTHESIZED'`,
      [run.id],
    );
    const born = memory.state.tasks.filter(
      (t) => t.bornGeneration === 1 && t.origin === "synthesized",
    );
    expect(lineage.rows[0]).toEqual({
      total: born.length,
      parents: born.filter((t) => t.parentTaskId !== null).length,
      signals: born.filter((t) => t.signalId !== null).length,
      triggers: born.filter((t) => t.triggerTrajectoryId !== null).length,
    });
    expect(lineage.rows[0]!.parents).toBeGreaterThan(0);
    expect(lineage.rows[0]!.triggers).toBeGreaterThan(0);
    expect(
      await count(
        `SELECT count(*)::int FROM "SkillStat" s JOIN "Generation" g ON g.id = s."generationId"
          WHERE g."runId" = $1 AND s.split = 'HELDOUT'`,
        [run.id],
      ),
    ).toBeGreaterThan(0);
  });

  it("starts exactly one round when 20 launches arrive at once", async () => {
    const run = await createRun(ctx(), {
      name: "Concurrent",
      config: parseRunConfig({ ...SMALL, mode: "static" }),
    });
    await waitForStatus(run.id, 0, ["DONE"]);

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => launchRound(ctx(), { runId: run.id })),
    );

    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refusals).toHaveLength(19);
    for (const refusal of refusals) {
      expect(refusal.reason).toMatchObject({ code: "CONFLICT" });
      expect(String(refusal.reason.message)).toMatch(/already in progress/);
    }
    expect(await count(`SELECT count(*)::int FROM "Generation" WHERE "runId" = $1`, [run.id])).toBe(
      2,
    );
    await waitForStatus(run.id, 1, ["DONE"]);
  });

  it("fails a round whose stage throws, shows the error, and resumes it from that stage on retry", async () => {
    const run = await createRun(ctx(), {
      name: "Flaky trainer",
      config: parseRunConfig({ ...SMALL, mode: "static" }),
    });
    await waitForStatus(run.id, 0, ["DONE"]);
    failTrainOnce = true;
    await launchRound(ctx(), { runId: run.id });

    const failed = await waitForStatus(run.id, 1, ["FAILED"]);
    expect(failed.stage).toBe("TRAIN");
    expect(failed.error).toBe("TRAIN: injected trainer failure");
    await expect(launchRound(ctx(), { runId: run.id })).rejects.toThrow(/failed; retry it/);
    const rolloutsBefore = await count(
      `SELECT count(*)::int FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
        WHERE g."runId" = $1 AND tr.purpose = 'TRAIN'`,
      [run.id],
    );

    await retryRound(ctx(), { runId: run.id });
    const done = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);

    expect(done.status).toBe("DONE");
    // The rollouts were not redone: the retry resumed at TRAIN.
    expect(
      await count(
        `SELECT count(*)::int FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
          WHERE g."runId" = $1 AND tr.purpose = 'TRAIN'`,
        [run.id],
      ),
    ).toBe(rolloutsBefore);
    await expect(retryRound(ctx(), { runId: run.id })).rejects.toThrow(
      "Only a failed round can be retried.",
    );
  });

  it("cancels a round mid-stage, then resumes it to the same result", async () => {
    const run = await createRun(ctx(), {
      name: "Cancelled",
      config: parseRunConfig({ ...SMALL, mode: "uniform" }),
    });
    await waitForStatus(run.id, 0, ["DONE"]);
    await launchRound(ctx(), { runId: run.id });
    await expect
      .poll(async () => (await generation(run.id, 1))?.status, { timeout: 30_000, interval: 20 })
      .toBe("RUNNING");

    await cancelRound(ctx(), { runId: run.id });

    expect((await generation(run.id, 1))!.status).toBe("CANCELLED");
    await expect(cancelRound(ctx(), { runId: run.id })).rejects.toThrow(/nothing to cancel/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await generation(run.id, 1))!.status).toBe("CANCELLED");

    await launchRound(ctx(), { runId: run.id });
    const done = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);
    expect(done.status).toBe("DONE");
    const memory = await runInMemory({ ...SMALL, mode: "uniform", rounds: 1 });
    expect(done.heldout!.success).toBe(memory.result.heldout[1]!.success);
  });

  it("waits for people in manual review, refuses decisions once the review is closed", async () => {
    const config = parseRunConfig({ ...SMALL, mode: "coevolve", review: { mode: "manual" } });
    const run = await createRun(ctx(), { name: "Manual review", config });
    await waitForStatus(run.id, 0, ["DONE"]);
    await launchRound(ctx(), { runId: run.id });
    await waitForStatus(run.id, 1, ["AWAITING_REVIEW"]);
    await expect(launchRound(ctx(), { runId: run.id })).rejects.toThrow(/waiting for its review/);

    const pending = await pool.query<{ id: number }>(
      `SELECT t.id FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
        WHERE g."runId" = $1 AND g.index = 1 AND t."reviewStatus" = 'PENDING' ORDER BY t.id`,
      [run.id],
    );
    expect(pending.rows.length).toBeGreaterThan(1);
    const [first, second] = pending.rows;
    const approved = await reviewTasks(pool, {
      runId: run.id,
      generationIndex: 1,
      selection: { taskIds: [first!.id] },
      decision: "APPROVED",
      reviewer: "ada@example.com",
    });
    expect(approved).toEqual({ updated: 1, skippedInvalid: 0 });
    await reviewTasks(pool, {
      runId: run.id,
      generationIndex: 1,
      selection: { taskIds: [second!.id] },
      decision: "REJECTED",
      note: "ambiguous instruction",
      reviewer: "ada@example.com",
    });
    const stats = await count(
      `SELECT sum(approved)::int AS count FROM "GenerationDataStat" s JOIN "Generation" g ON g.id = s."generationId"
        WHERE g."runId" = $1 AND g.index = 1`,
      [run.id],
    );
    expect(stats).toBe(1);

    await closeReview(ctx(), { runId: run.id });
    await expect(
      reviewTasks(pool, {
        runId: run.id,
        generationIndex: 1,
        selection: { taskIds: [first!.id] },
        decision: "REJECTED",
        reviewer: "ada@example.com",
      }),
    ).rejects.toThrow("The review of generation 1 is closed");
    await waitForStatus(run.id, 1, ["DONE"]);

    const poolTasks = await pool.query<{ id: number }>(
      `SELECT p."taskId" AS id FROM "PoolEntry" p JOIN "Generation" g ON g.id = p."generationId"
        WHERE g."runId" = $1 AND g.index = 1`,
      [run.id],
    );
    const inPool = new Set(poolTasks.rows.map((row) => row.id));
    expect(inPool.has(first!.id)).toBe(true);
    expect(inPool.has(second!.id)).toBe(false);
    const rejected = await pool.query(
      `SELECT "reviewStatus", reviewer, "reviewNote" FROM "Task" WHERE id = $1`,
      [second!.id],
    );
    expect(rejected.rows[0]).toEqual({
      reviewStatus: "REJECTED",
      reviewer: "ada@example.com",
      reviewNote: "ambiguous instruction",
    });
  });

  it("answers unknown runs and generations with NOT_FOUND", async () => {
    await expect(launchRound(ctx(), { runId: 987654 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      reviewTasks(pool, {
        runId: 987654,
        generationIndex: 3,
        selection: { taskIds: [1] },
        decision: "APPROVED",
        reviewer: "x",
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

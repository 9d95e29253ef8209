import { randomBytes } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { refreshDataStats } from "@/lib/db/mutations/data-stats";
import { testDatabaseUrl } from "@/tests/support/db";
import { listDataStats, listHeldoutCurves, listSkillStats, listTrainingBudget } from "./stats";

vi.mock("server-only", () => ({}));

let pool: Pool;

beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 2 });
});

afterAll(async () => {
  await pool?.end();
});

async function insertRun(mode = "COEVOLVE"): Promise<number> {
  const slug = `stats-${randomBytes(4).toString("hex")}`;
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $1, $2::"RunMode", 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
    [slug, mode],
  );
  return rows[0]!.id;
}

async function insertGeneration(
  runId: number,
  index: number,
  budget: { rollouts: number; envSteps: number } = { rollouts: 0, envSteps: 0 },
): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status, stage, "trainRollouts", "trainEnvSteps")
     VALUES ($1, $2, 'DONE', 'DONE', $3, $4) RETURNING id`,
    [runId, index, budget.rollouts, budget.envSteps],
  );
  return rows[0]!.id;
}

async function insertSkillStat(
  generationId: number,
  split: "TRAIN" | "HELDOUT",
  skill: string,
  level: number,
  successes: number,
  attempts: number,
) {
  await pool.query(
    `INSERT INTO "SkillStat" ("generationId", split, skill, level, attempts, successes, "rewardSum", "envSteps")
     VALUES ($1, $2::"Split", $3, $4, $5, $6, $7, $8)`,
    [generationId, split, skill, level, attempts, successes, successes, attempts * 4],
  );
}

describe("stats queries", () => {
  it("read SkillStat rows of several runs, by split, with generation indexes", async () => {
    const a = await insertRun();
    const b = await insertRun("STATIC");
    const a0 = await insertGeneration(a, 0);
    const a1 = await insertGeneration(a, 1, { rollouts: 48, envSteps: 300 });
    const b0 = await insertGeneration(b, 0);
    await insertSkillStat(a0, "HELDOUT", "pay", 1, 1, 4);
    await insertSkillStat(a0, "HELDOUT", "lookup", 2, 3, 4);
    await insertSkillStat(a0, "TRAIN", "pay", 1, 10, 16);
    await insertSkillStat(a1, "HELDOUT", "pay", 1, 4, 4);
    await insertSkillStat(a1, "HELDOUT", "lookup", 2, 2, 4);
    await insertSkillStat(b0, "HELDOUT", "pay", 1, 0, 4);

    const heldout = await listSkillStats({ runIds: [a, b], split: "HELDOUT", db: pool });
    expect(heldout).toHaveLength(5);
    expect(heldout[0]).toEqual({
      runId: a,
      generation: 0,
      split: "HELDOUT",
      skill: "lookup",
      level: 2,
      attempts: 4,
      successes: 3,
      envSteps: 16,
    });
    expect((await listSkillStats({ runIds: [a], db: pool })).map((p) => p.split)).toContain(
      "TRAIN",
    );
    expect(await listSkillStats({ runIds: [], db: pool })).toEqual([]);

    const curves = await listHeldoutCurves({ runIds: [a, b], db: pool });
    expect(curves.get(a)).toEqual([
      { generation: 0, rate: 0.5 },
      { generation: 1, rate: 0.75 },
    ]);
    expect(curves.get(b)).toEqual([{ generation: 0, rate: 0 }]);

    expect(await listTrainingBudget({ runIds: [a], db: pool })).toEqual([
      { runId: a, generation: 0, trainRollouts: 0, trainEnvSteps: 0 },
      { runId: a, generation: 1, trainRollouts: 48, trainEnvSteps: 300 },
    ]);
  });

  it("read the data statistics refreshDataStats writes from a generation's tasks", async () => {
    const runId = await insertRun();
    const generationId = await insertGeneration(runId, 1);
    const tasks = [
      {
        skill: "pay",
        est: 0.2,
        measured: 0.5,
        validation: "VALID",
        review: "APPROVED",
        signal: "BOUNDARY",
      },
      {
        skill: "pay",
        est: 0.4,
        measured: null,
        validation: "VALID",
        review: "PENDING",
        signal: "RARE",
      },
      {
        skill: "pay",
        est: 0.9,
        measured: null,
        validation: "INVALID",
        review: "REJECTED",
        signal: "BOUNDARY",
      },
      {
        skill: "lookup",
        est: 0.6,
        measured: 0.25,
        validation: "VALID",
        review: "APPROVED",
        signal: "FORGETTING",
      },
    ];
    for (const [i, t] of tasks.entries()) {
      await pool.query(
        `INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty",
            "measuredDifficulty", origin, "signalKind", instruction, spec, fingerprint,
            "validationStatus", "reviewStatus")
         VALUES ($1, $2, $3, $4, 1, $5, $6, 'SYNTHESIZED', $7::"SignalKind", 'do it', '{}', $2,
                 $8::"ValidationStatus", $9::"ReviewStatus")`,
        [
          runId,
          `t${i}`,
          generationId,
          t.skill,
          t.est,
          t.measured,
          t.signal,
          t.validation,
          t.review,
        ],
      );
    }
    await refreshDataStats(pool, generationId);

    const stats = await listDataStats({ runId, db: pool });
    // Only valid tasks count for estimated difficulty: 0.9 (invalid) is left out.
    const payQuantiles = stats[1]!.estimatedDifficultyQ;
    [0.2, 0.25, 0.3, 0.35, 0.4].forEach((q, i) => expect(payQuantiles[i]).toBeCloseTo(q, 9));
    expect(stats).toEqual([
      {
        generation: 1,
        skill: "lookup",
        candidates: 1,
        valid: 1,
        invalid: 0,
        approved: 1,
        rejected: 0,
        pending: 0,
        signalForgetting: 1,
        signalBoundary: 0,
        signalRare: 0,
        signalUniform: 0,
        estimatedDifficultyQ: [0.6, 0.6, 0.6, 0.6, 0.6],
        measuredDifficultyQ: [0.25, 0.25, 0.25, 0.25, 0.25],
      },
      {
        generation: 1,
        skill: "pay",
        candidates: 3,
        valid: 2,
        invalid: 1,
        approved: 1,
        rejected: 1,
        pending: 1,
        signalForgetting: 0,
        signalBoundary: 2,
        signalRare: 1,
        signalUniform: 0,
        estimatedDifficultyQ: payQuantiles,
        measuredDifficultyQ: [0.5, 0.5, 0.5, 0.5, 0.5],
      },
    ]);
  });
});

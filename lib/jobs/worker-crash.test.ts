import { spawn, type ChildProcess } from "node:child_process";
import { Pool } from "pg";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { createRun, launchRound } from "@/lib/db/mutations/rounds";
import { parseRunConfig } from "@/lib/validations/run-config";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/db";
import { createBoss, ensureQueues, JOB_EXPIRY_SECONDS } from "./queue";

// Big enough that rollouts take seconds, so the kill lands in the middle of them.
const TASKS_PER_ROUND = 480;
const GROUP_SIZE = 8;

let database: ScratchDatabase;
let pool: Pool;
let boss: PgBoss;
const workers: ChildProcess[] = [];

function spawnWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: { ...process.env, DATABASE_URL: database.url },
    stdio: ["ignore", "ignore", "inherit"],
  });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  database = await createScratchDatabase("crash");
  await migrate({ connectionString: database.url });
  pool = new Pool({ connectionString: database.url, max: 4 });
  pool.on("error", () => {}); // connections dropped when the scratch database is dropped
  boss = createBoss(database.url, "client");
  await boss.start();
  await ensureQueues(boss);
});

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await boss?.stop({ graceful: false });
  await pool?.end();
  await database?.drop();
});

async function rolloutProgress(runId: number) {
  const { rows } = await pool.query<{
    status: string;
    stage: string;
    done: number | null;
    total: number | null;
  }>(
    `SELECT status, stage, (progress->'ROLLOUT'->>'done')::int AS done, (progress->'ROLLOUT'->>'total')::int AS total
       FROM "Generation" WHERE "runId" = $1 AND index = 1`,
    [runId],
  );
  return rows[0];
}

it("a worker killed with SIGKILL mid-rollout loses and doubles nothing: a new worker finishes the round", async () => {
  const first = spawnWorker();
  const run = await createRun(
    { pool, boss },
    {
      name: "Crash",
      config: parseRunConfig({
        mode: "static",
        tasksPerRound: TASKS_PER_ROUND,
        groupSize: GROUP_SIZE,
      }),
    },
  );
  await expect
    .poll(
      async () =>
        (
          await pool.query(`SELECT status FROM "Generation" WHERE "runId" = $1 AND index = 0`, [
            run.id,
          ])
        ).rows[0]?.status,
      {
        timeout: 60_000,
        interval: 100,
      },
    )
    .toBe("DONE");
  await launchRound({ pool, boss }, { runId: run.id });

  await expect
    .poll(
      async () => {
        const progress = await rolloutProgress(run.id);
        return progress?.stage === "ROLLOUT" && (progress.done ?? 0) >= 2;
      },
      { timeout: 60_000, interval: 10 },
    )
    .toBe(true);
  first.kill("SIGKILL");
  await new Promise((resolve) => first.once("exit", resolve));
  const atKill = await rolloutProgress(run.id);
  expect(atKill!.stage).toBe("ROLLOUT");
  expect(atKill!.done).toBeLessThan(atKill!.total!);

  const restartedAt = Date.now();
  spawnWorker();
  await expect
    .poll(async () => (await rolloutProgress(run.id))?.status, {
      timeout: (JOB_EXPIRY_SECONDS + 60) * 1000,
      interval: 250,
    })
    .toBe("DONE");
  const recoverySeconds = (Date.now() - restartedAt) / 1000;
  console.log(
    `crash recovery: killed at ROLLOUT ${atKill!.done}/${atKill!.total} batches; ` +
      `round done ${recoverySeconds.toFixed(1)} s after the new worker started`,
  );
  expect(recoverySeconds).toBeLessThan(60);

  const { rows } = await pool.query<{ total: number; distinct: number }>(
    `SELECT count(*)::int AS total,
              count(DISTINCT (tr."taskId", tr."sampleIndex"))::int AS distinct
         FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
        WHERE g."runId" = $1 AND g.index = 0 AND tr.purpose = 'TRAIN'`,
    [run.id],
  );
  expect(rows[0]).toEqual({
    total: TASKS_PER_ROUND * GROUP_SIZE,
    distinct: TASKS_PER_ROUND * GROUP_SIZE,
  });
}, 180_000);

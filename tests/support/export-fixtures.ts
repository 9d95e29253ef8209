import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Pool } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createToolWorld, LEVELS, SKILL_IDS } from "@/lib/engine/environments/toolworld";
import type { Task, TrajectoryStep } from "@/lib/engine/types";
import { insertTasks } from "@/lib/jobs/engine-rows";
import { parseRunConfig } from "@/lib/validations/run-config";

/**
 * A run written straight to the tables (no queue, no worker): generation 0 with real ToolWorld
 * tasks and trajectories whose steps are the tasks' reference episodes, so exports of it are
 * shaped exactly like a real run's. Trajectories go in through one COPY stream (as
 * scripts/bench-ingest.ts does), fast enough for the 200k-row benchmark.
 */

export type SeededRun = {
  runId: number;
  slug: string;
  generationId: number;
  tasks: { dbId: number; task: Task }[];
};

export type SeedRunOptions = {
  name?: string;
  tasks: number;
  /** Trajectories per task and purpose (TRAIN, plus EVAL when `hasEval`). */
  samplesPerTask: number;
  hasEval?: boolean;
  /** Every n-th task is left PENDING and every (n+1)-th REJECTED; the rest APPROVED. */
  unapprovedEvery?: number;
};

export async function seedExportRun(pool: Pool, options: SeedRunOptions): Promise<SeededRun> {
  const world = createToolWorld();
  const slug = `${options.name ?? "export"}-${randomBytes(4).toString("hex")}`;
  const { rows: runRows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $2, 'COEVOLVE', 'toolworld', 'builtin', 7, $3, now()) RETURNING id`,
    [slug, options.name ?? slug, JSON.stringify(parseRunConfig({ seed: 7 }))],
  );
  const runId = runRows[0]!.id;
  const { rows: genRows } = await pool.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status, stage) VALUES ($1, 0, 'DONE', 'DONE')
     RETURNING id`,
    [runId],
  );
  const generationId = genRows[0]!.id;

  const tasks: Task[] = [];
  for (let i = 0; tasks.length < options.tasks; i++) {
    const task = world.local!.generateTask({
      skill: SKILL_IDS[i % SKILL_IDS.length]!,
      level: LEVELS[Math.floor(i / SKILL_IDS.length) % 2]!,
      seed: 1000 + i,
      split: "train",
      origin: "seed",
      generation: 0,
    });
    if (tasks.some((t) => t.fingerprint === task.fingerprint)) continue;
    const n = options.unapprovedEvery ?? 0;
    const status =
      n > 0 && tasks.length % n === n - 1
        ? "pending"
        : n > 0 && tasks.length % n === 0 && tasks.length > 0
          ? "rejected"
          : "approved";
    tasks.push({
      ...task,
      validation: { status: "valid", reason: null },
      review: { status, by: status === "pending" ? null : "system", note: null },
    });
  }
  await insertTasks(pool, { runId, generationId, tasks });
  const { rows: stored } = await pool.query<{ id: number; key: string }>(
    `SELECT id, key FROM "Task" WHERE "runId" = $1 ORDER BY id`,
    [runId],
  );
  const byKey = new Map(tasks.map((t) => [t.id, t]));

  const purposes = options.hasEval ? ["TRAIN", "EVAL"] : ["TRAIN"];
  function* copyChunks() {
    for (const row of stored) {
      const steps = referenceEpisode(world, byKey.get(row.key)!);
      const stepsText = escapeCopy(JSON.stringify(steps));
      let text = "";
      for (const purpose of purposes) {
        for (let s = 0; s < options.samplesPerTask; s++) {
          const success = s % 2 === 0;
          text +=
            `${generationId}\t${row.id}\t${purpose}\t${s}\t${stepsText}\t${success ? 1 : 0}\t` +
            `${success ? "t" : "f"}\t${steps.length}\t0.5\t${success ? 0.5 : -0.5}\tf\t0\t` +
            `finish\n`;
        }
      }
      yield text;
    }
  }
  const client = await pool.connect();
  try {
    await pipeline(
      Readable.from(copyChunks()),
      client.query(
        copyFrom(
          `COPY "Trajectory" ("generationId", "taskId", purpose, "sampleIndex", steps, reward,
             success, "stepCount", "meanEntropy", advantage, "sideEffect", "policyVersion",
             "endReason") FROM STDIN`,
        ),
      ),
    );
  } finally {
    client.release();
  }
  return {
    runId,
    slug,
    generationId,
    tasks: stored.map((row) => ({ dbId: row.id, task: byKey.get(row.key)! })),
  };
}

const episodeCache = new Map<string, TrajectoryStep[]>();

/** The task's reference solution played in its world: real observations, a real finish. */
function referenceEpisode(world: ReturnType<typeof createToolWorld>, task: Task): TrajectoryStep[] {
  const cached = episodeCache.get(task.fingerprint);
  if (cached) return cached;
  const episode = world.local!.openEpisode(task);
  const steps = world.local!.referenceSolution(task).map((call, index) => {
    const result = episode.stepSync(call);
    return {
      index,
      tool: call.tool,
      arguments: call.arguments,
      observation: result.observation,
      probability: 0.5,
      entropy: 0.7,
      candidateCount: 4,
      isError: result.isError,
    };
  });
  episodeCache.set(task.fingerprint, steps);
  return steps;
}

function escapeCopy(value: string): string {
  return value
    .replaceAll("\\", "\\\\")
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r")
    .replaceAll("\t", "\\t");
}

/**
 * npm run seed:large [-- --replace] [-- --tasks 60000]
 *
 * Writes one large run ("large-benchmark") for the dashboard's performance checks: six generations,
 * ≥100k tasks (60k in generation 5, which waits for review) and ≥1M trajectories with small
 * realistic steps, plus the SkillStat and GenerationDataStat rows charts read. Rows are generated
 * inside Postgres (INSERT … SELECT over generate_series): nothing crosses the wire, which beats
 * streaming the same rows through COPY. Ends with VACUUM ANALYZE so counts are index-only scans.
 *
 * Uses DATABASE_URL, or the embedded database `npm start` uses (stop `npm start` first: one server
 * per data folder). If the run exists it stops and says so; --replace deletes it and seeds again.
 */
import { parseArgs } from "node:util";
import { Client } from "pg";
import { refreshDataStats } from "@/lib/db/mutations/data-stats";
import { isAppError } from "@/lib/errors";
import { RunConfigSchema } from "@/lib/validations/run-config";
import { openAppDatabase } from "./lib/cli-database";
import { BIG_GENERATION, LARGE_RUN_SLUG } from "./lib/large-run";

const { values: args } = parseArgs({
  options: {
    replace: { type: "boolean", default: false },
    tasks: { type: "string", default: "60000" },
  },
});
const BIG_TASKS = Number(args.tasks);
if (!Number.isInteger(BIG_TASKS) || BIG_TASKS < 100) {
  console.error(`--tasks must be a whole number ≥ 100 (got ${args.tasks})`);
  process.exit(2);
}

const log = (line: string) => console.log(`[seed:large] ${line}`);

const SKILLS = ["files", "search", "calendar", "email", "math", "shell", "web", "sql"];
/** Tasks born per generation; generation 0 also holds the held-out set. */
const TASKS_PER_GENERATION = [2_500, 10_000, 10_000, 10_000, 10_000, BIG_TASKS];
const HELDOUT = 500;
/** Trajectories per task: a GRPO group of 8 training rollouts and 2 evaluation episodes. */
const TRAIN_SAMPLES = 8;
const EVAL_SAMPLES = 2;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  log(`${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

async function main(): Promise<void> {
  const started = Date.now();
  const database = await openAppDatabase(log);
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const existing = await client.query<{ id: number }>(`SELECT id FROM "Run" WHERE slug = $1`, [
      LARGE_RUN_SLUG,
    ]);
    if (existing.rows[0]) {
      if (!args.replace) {
        log(
          `run "${LARGE_RUN_SLUG}" already exists (id ${existing.rows[0].id}): nothing to do. ` +
            "Run with --replace to delete it and seed it again.",
        );
        return;
      }
      await timed("deleted the previous large run", () =>
        client.query(`DELETE FROM "Run" WHERE id = $1`, [existing.rows[0]!.id]),
      );
    }
    await client.query("SET synchronous_commit = off");
    await client.query("SELECT setseed(0.42)");
    const runId = await createRun(client);
    const generationIds: number[] = [];
    for (let index = 0; index < TASKS_PER_GENERATION.length; index += 1) {
      generationIds.push(await createGeneration(client, runId, index));
    }
    for (let index = 0; index < generationIds.length; index += 1) {
      await timed(`generation ${index}: ${TASKS_PER_GENERATION[index]} tasks`, () =>
        insertTasks(client, runId, index, generationIds),
      );
    }
    for (let index = 0; index < generationIds.length; index += 1) {
      await timed(`generation ${index}: trajectories`, () =>
        insertTrajectories(client, generationIds[index]!, index),
      );
    }
    await timed("statistics (SkillStat, GenerationDataStat)", async () => {
      await insertSkillStats(client, generationIds);
      for (const id of generationIds) await refreshDataStats(client, id);
    });
    await timed("VACUUM ANALYZE", async () => {
      for (const table of ["Task", "Trajectory", "SkillStat", "GenerationDataStat", "Generation"]) {
        await client.query(`VACUUM ANALYZE "${table}"`);
      }
    });
    const counts = await client.query<{ tasks: number; trajectories: number }>(
      `SELECT (SELECT count(*) FROM "Task" WHERE "runId" = $1)::int AS tasks,
              (SELECT count(*) FROM "Trajectory" tr JOIN "Generation" g ON g.id = tr."generationId"
                WHERE g."runId" = $1)::int AS trajectories`,
      [runId],
    );
    log(
      `run "${LARGE_RUN_SLUG}" (id ${runId}): ${counts.rows[0]!.tasks} tasks, ` +
        `${counts.rows[0]!.trajectories} trajectories, generation ${BIG_GENERATION} has ${BIG_TASKS} ` +
        `tasks; ${((Date.now() - started) / 1000).toFixed(0)} s in all. Open /runs/${LARGE_RUN_SLUG}.`,
    );
  } finally {
    await client.end();
    await database.embedded?.stop();
  }
}

async function createRun(client: Client): Promise<number> {
  const config = RunConfigSchema.parse({ mode: "coevolve", seed: 42, review: { mode: "manual" } });
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, 'Large benchmark (100k tasks)', 'COEVOLVE', 'toolworld', 'builtin', 42, $2, now())
     RETURNING id`,
    [LARGE_RUN_SLUG, JSON.stringify(config)],
  );
  return rows[0]!.id;
}

async function createGeneration(client: Client, runId: number, index: number): Promise<number> {
  const isBig = index === BIG_GENERATION;
  const success = 0.42 + index * 0.045;
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index, status, stage, "policyVersion", heldout,
        "trainRollouts", "trainEnvSteps", "startedAt", "finishedAt", "reviewClosedAt", "createdAt")
     VALUES ($1, $2, $3::"GenerationStatus", $4::"Stage", $2, $5, $6, $7,
             now() - make_interval(hours => 12 - $2 * 2), now() - make_interval(hours => 11 - $2 * 2),
             CASE WHEN $2 > 0 AND NOT $8 THEN now() - make_interval(hours => 11 - $2 * 2) END,
             now() - make_interval(hours => 12 - $2 * 2))
     RETURNING id`,
    [
      runId,
      index,
      isBig ? "AWAITING_REVIEW" : "DONE",
      isBig ? "CURATE" : "DONE",
      JSON.stringify({ success }),
      index === 0 ? 0 : 8_000,
      index === 0 ? 0 : 24_000,
      isBig,
    ],
  );
  return rows[0]!.id;
}

/**
 * One generation's tasks in one statement. The mix is what a real run shows: skills of uneven
 * popularity, mostly boundary and forgetting signals, a few invalid candidates, and (in the
 * generation waiting for review) most decisions still pending.
 */
async function insertTasks(
  client: Client,
  runId: number,
  index: number,
  generationIds: number[],
): Promise<void> {
  const count = TASKS_PER_GENERATION[index]!;
  const isSeed = index === 0;
  const isAwaiting = index === BIG_GENERATION;
  const previous = index > 0 ? generationIds[index - 1]! : null;
  await client.query(
    `WITH parents AS (
       SELECT min(id) AS first_id, count(*) AS total FROM "Task" WHERE "generationId" = $4 AND split = 'TRAIN'
     ), drawn AS (
       SELECT n, random() AS r_skill, random() AS r_diff, random() AS r_signal, random() AS r_review,
              random() AS r_valid, random() AS r_noise
         FROM generate_series(1, $5::int) n
     )
     INSERT INTO "Task" ("runId", key, "generationId", skill, level, "estimatedDifficulty",
        "measuredDifficulty", "measuredByPolicyVersion", origin, split, "signalKind", relation,
        "parentTaskId", instruction, spec, fingerprint, "validationStatus", "validationReason",
        "reviewStatus", reviewer, "reviewedAt", "reviewNote")
     SELECT $1, 'g' || $2 || '-' || n, $3, skill, level, est,
            CASE WHEN $6 AND n % 5 < 2 THEN NULL ELSE least(1, greatest(0, round((est + (r_noise - 0.5) * 0.3)::numeric, 3)))::float8 END,
            CASE WHEN $6 AND n % 5 < 2 THEN NULL ELSE $2 END,
            (CASE WHEN $7 THEN 'SEED' WHEN n % 40 = 0 THEN 'IMPORTED' ELSE 'SYNTHESIZED' END)::"TaskOrigin",
            (CASE WHEN $7 AND n > $5 - $8 THEN 'HELDOUT' ELSE 'TRAIN' END)::"Split",
            (CASE WHEN $7 THEN NULL WHEN r_signal < 0.3 THEN 'FORGETTING' WHEN r_signal < 0.7 THEN 'BOUNDARY'
                  WHEN r_signal < 0.88 THEN 'RARE' WHEN r_signal < 0.95 THEN 'UNIFORM' END)::"SignalKind",
            CASE WHEN $7 THEN NULL ELSE (ARRAY['variant', 'harder', 'easier', 'explore'])[1 + n % 4] END,
            CASE WHEN $7 THEN NULL ELSE first_id + (n * 7919) % greatest(total, 1) END,
            format((ARRAY[
              'Find every %s file under /data/%s modified after day %s and report the largest one''s size.',
              'Search the %s index for "%s" and return the id of the %sth result.',
              'Move the %s meeting with %s to the first free slot after %s:00 without overlapping.',
              'Reply to the %s email from %s with the total of the invoices dated day %s.',
              'Compute the %s of the numbers in column "%s" of table t%s, rounded to two decimals.',
              'Write a shell pipeline that counts the %s lines containing "%s" in log %s.',
              'Open the %s page about %s and extract the price listed in section %s.',
              'Write a SQL query returning the %s customers of region "%s" with more than %s orders.'
            ])[array_position($9::text[], skill)],
              (ARRAY['oldest', 'newest', 'largest', 'median', 'first', 'last'])[1 + n % 6],
              (ARRAY['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma'])[1 + (n / 7) % 7],
              n % 97),
            '{}'::jsonb || jsonb_build_object('template', skill, 'seed', n, 'level', level),
            'fp-' || $2 || '-' || n,
            (CASE WHEN $7 OR r_valid >= 0.08 THEN 'VALID' ELSE 'INVALID' END)::"ValidationStatus",
            CASE WHEN NOT $7 AND r_valid < 0.08 THEN
              (ARRAY['the checker accepts an empty answer', 'no solution found within 12 steps',
                     'duplicate of an existing task', 'instruction references a missing file'])[1 + n % 4] END,
            (CASE WHEN $7 OR r_valid < 0.08 THEN 'PENDING'
                  WHEN $6 THEN (CASE WHEN r_review < 0.7 THEN 'PENDING' WHEN r_review < 0.9 THEN 'APPROVED' ELSE 'REJECTED' END)
                  ELSE (CASE WHEN r_review < 0.85 THEN 'APPROVED' ELSE 'REJECTED' END) END)::"ReviewStatus",
            CASE WHEN NOT $7 AND r_valid >= 0.08 AND (NOT $6 OR r_review >= 0.7)
                 THEN (ARRAY['ada@example.com', 'grace@example.com', 'auto-band'])[1 + n % 3] END,
            CASE WHEN NOT $7 AND r_valid >= 0.08 AND (NOT $6 OR r_review >= 0.7) THEN now() END,
            CASE WHEN NOT $7 AND r_valid >= 0.08 AND r_review >= ($6::int * 0.05 + 0.9) AND n % 2 = 0
                 THEN 'ambiguous instruction' END
       FROM (
         SELECT d.*, s.skill, 1 + floor(r_diff * 4)::int AS level,
                round((0.05 + 0.9 * r_diff * (0.7 + 0.3 * r_noise) + $2 * 0.01)::numeric, 3)::float8 AS est
           FROM drawn d,
           LATERAL (SELECT ($9::text[])[1 + floor(power(d.r_skill, 1.4) * 8)::int] AS skill) s
       ) rows
       CROSS JOIN parents`,
    [runId, index, generationIds[index], previous, count, isAwaiting, isSeed, HELDOUT, SKILLS],
  );
}

/**
 * TRAIN_SAMPLES training rollouts and EVAL_SAMPLES evaluation episodes per task, 2–4 steps each,
 * with rewards and advantages that vary within a group (so the GRPO view has something to show).
 */
async function insertTrajectories(client: Client, generationId: number, index: number) {
  await client.query(
    `INSERT INTO "Trajectory" ("generationId", "taskId", purpose, "sampleIndex", steps, reward, success,
        "stepCount", "meanEntropy", advantage, "policyVersion", answer, "endReason", failure)
     SELECT $1, t.id, p.purpose::"TrajectoryPurpose", s.i, steps.steps, r.reward, r.reward >= 0.99,
            r.step_count, r.entropy,
            CASE WHEN p.purpose = 'TRAIN' THEN round((r.reward - 0.5)::numeric * 2, 3)::float8 END,
            $2, CASE WHEN r.reward >= 0.99 THEN 'answer-' || (t.id % 1000) END,
            CASE WHEN r.step_count < 4 THEN 'finish' ELSE 'max_steps' END,
            CASE WHEN r.reward < 0.99 THEN 'the answer did not match the expected value' END
       FROM "Task" t
       CROSS JOIN (VALUES ('TRAIN', $3::int), ('EVAL', $4::int)) p(purpose, samples)
       CROSS JOIN LATERAL generate_series(0, p.samples - 1) s(i)
       CROSS JOIN LATERAL (
         SELECT CASE WHEN random() > t."estimatedDifficulty" THEN 1.0 ELSE round(random()::numeric * 0.5, 2)::float8 END AS reward,
                2 + ((t.id + s.i) % 3) AS step_count,
                round((0.4 + random() * 1.2)::numeric, 3)::float8 AS entropy
       ) r
       CROSS JOIN LATERAL (
         SELECT jsonb_agg(jsonb_build_object(
                  'tool', (ARRAY['list_dir', 'read_file', 'search', 'write_file', 'finish'])[1 + (k + s.i) % 5],
                  'arguments', jsonb_build_object('path', '/data/' || t.skill || '/' || k),
                  'observation', jsonb_build_object('status', 'ok', 'text', 'step ' || k || ' of task ' || t.id),
                  'probability', round((0.2 + 0.1 * k)::numeric, 2),
                  'entropy', round((1.3 - 0.2 * k)::numeric, 2)) ORDER BY k) AS steps
           FROM generate_series(1, r.step_count) k
       ) steps
      WHERE t."generationId" = $1`,
    [generationId, index, TRAIN_SAMPLES, EVAL_SAMPLES],
  );
}

/** Per generation × split × skill × level success counts; skill "email" forgets in generation 3. */
async function insertSkillStats(client: Client, generationIds: number[]) {
  await client.query(
    `INSERT INTO "SkillStat" ("generationId", split, skill, level, attempts, successes, "rewardSum", "envSteps")
     SELECT g.id, split::"Split", skill, level, 200,
            round(200 * least(0.98, greatest(0.02,
              0.75 - level * 0.12 + gi.index * 0.04 + (array_position($2::text[], skill) - 4) * 0.02
              - CASE WHEN skill = 'email' AND gi.index = 3 THEN 0.25 ELSE 0 END
              - CASE WHEN split = 'HELDOUT' THEN 0.05 ELSE 0 END)))::int,
            round((200 * 0.6)::numeric, 1)::float8, 200 * 3
       FROM unnest($1::int[]) WITH ORDINALITY AS g(id, n)
       CROSS JOIN LATERAL (SELECT g.n - 1 AS index) gi
       CROSS JOIN unnest(ARRAY['TRAIN', 'HELDOUT']) split
       CROSS JOIN unnest($2::text[]) skill
       CROSS JOIN generate_series(1, 4) level`,
    [generationIds, SKILLS],
  );
}

main().catch((error: unknown) => {
  console.error(`[seed:large] ${isAppError(error) ? error.message : String(error)}`);
  if (isAppError(error) && error.hint) console.error(`[seed:large] ${error.hint}`);
  if (!isAppError(error)) console.error(error);
  process.exit(1);
});

import type { Pool } from "pg";
import { withTransaction } from "@/lib/db/transaction";
import { refreshDataStats } from "@/lib/db/mutations/data-stats";
import { AppError } from "@/lib/errors";
import type { ImportFormat } from "@/lib/import/format";
import { environmentOfRun, remoteEnvironmentError } from "@/lib/import/environment";
import { prepareImport, type ImportDuplicate, type ImportError } from "@/lib/import/prepare";
import type { ImportSource } from "@/lib/import/read-lines";
import { HttpEnvironmentError } from "@/lib/engine/environments/http/client";
import { httpEnvironmentOf, parseRunConfig } from "@/lib/validations/run-config";

export type ImportTasksOptions = {
  pool: Pool;
  slug: string;
  source: ImportSource;
  format: ImportFormat;
  /** Check everything, write nothing. */
  isDryRun?: boolean;
  actor?: string | null;
  /** Opens a remote environment's saved API key; defaults to the app's key. */
  secretKey?: Buffer;
};

export type ImportSummary = {
  /** Tasks written (or, in a dry run, that would be). */
  imported: number;
  duplicates: ImportDuplicate[];
  errors: ImportError[];
  isDryRun: boolean;
};

/**
 * Imports seed tasks into a run: all of the file or nothing. Imported tasks are born in
 * generation 0 beside the seed pool (origin IMPORTED, valid, approved by "import"), so every
 * later NEXT_POOL stage sees them: co-evolve and uniform runs draw them as replay (unattempted
 * tasks get a high replay priority, so they are trained on soon), and static runs cycle them with
 * the seed pool (`isSeedPoolTask`). A pool already built is not changed; the next one is.
 */
export async function importTasks(options: ImportTasksOptions): Promise<ImportSummary> {
  const { rows: runs } = await options.pool.query<{ id: number; config: unknown }>(
    `SELECT id, config FROM "Run" WHERE slug = $1`,
    [options.slug],
  );
  const run = runs[0];
  if (!run) throw new AppError("NOT_FOUND", `Run "${options.slug}" does not exist.`);
  const isDryRun = options.isDryRun ?? false;

  const config = parseRunConfig(run.config);
  const environment = await environmentOfRun({
    db: options.pool,
    runId: run.id,
    config,
    secretKey: options.secretKey,
  });
  const remote = httpEnvironmentOf(config);
  if (remote && !environment.taskFromPortable) {
    throw new AppError(
      "CONFLICT",
      `Environment ${remote.baseUrl} cannot take imported tasks: its server does not offer capabilities.portable (POST /tasks/from-portable).`,
    );
  }
  const plan = await prepareImport({
    source: options.source,
    format: options.format,
    environment,
    existing: await loadFingerprints(options.pool, run.id),
  }).catch((error: unknown) => {
    // A line the environment rejects is a line error; a failing server is not the file's fault.
    if (remote && error instanceof HttpEnvironmentError) {
      throw remoteEnvironmentError(remote.baseUrl, error);
    }
    throw error;
  });
  if (plan.errors.length > 0 || isDryRun) {
    return {
      imported: plan.errors.length > 0 ? 0 : plan.tasks.length,
      duplicates: plan.duplicates,
      errors: plan.errors,
      isDryRun,
    };
  }
  if (plan.tasks.length === 0)
    return { imported: 0, duplicates: plan.duplicates, errors: [], isDryRun };

  return withTransaction(options.pool, async (client) => {
    // The run lock orders concurrent imports: the second one sees the first one's tasks below.
    await client.query(`SELECT 1 FROM "Run" WHERE id = $1 FOR UPDATE`, [run.id]);
    const generation = await client.query<{ id: number; stage: string }>(
      `SELECT id, stage FROM "Generation" WHERE "runId" = $1 AND index = 0`,
      [run.id],
    );
    const generationId = generation.rows[0]?.id;
    if (generationId === undefined) {
      throw new AppError("CONFLICT", `Run "${options.slug}" has no generation 0 to import into.`);
    }
    // The seed stage writes the held-out set and seed pool with ON CONFLICT DO NOTHING: an
    // imported twin written first would silently take a held-out task's place.
    if (generation.rows[0]!.stage === "SEED") {
      throw new AppError(
        "CONFLICT",
        `Run "${options.slug}" is still building its seed pool and held-out set; import once generation 0 has finished seeding.`,
      );
    }
    const existing = await loadFingerprints(client, run.id);
    const duplicates = [...plan.duplicates];
    const fresh = plan.tasks.filter(({ line, task }) => {
      const taskId = existing.get(task.fingerprint);
      if (taskId === undefined) return true;
      duplicates.push({ line, fingerprint: task.fingerprint, taskId });
      return false;
    });
    const rows = fresh.map(({ task }) => ({
      key: task.id,
      fingerprint: task.fingerprint,
      skill: task.skill,
      level: task.level,
      estimatedDifficulty: task.estimatedDifficulty,
      instruction: task.instruction,
      spec: task.spec,
    }));
    await client.query(
      `INSERT INTO "Task" ("runId", "generationId", key, fingerprint, skill, level,
         "estimatedDifficulty", origin, split, instruction, spec, "validationStatus",
         "reviewStatus", reviewer, "reviewNote", "reviewedAt")
       SELECT $1, $2, r.key, r.fingerprint, r.skill, r.level, r."estimatedDifficulty", 'IMPORTED',
              'TRAIN', r.instruction, r.spec, 'VALID', 'APPROVED', 'import', 'imported seed task',
              now()
         FROM jsonb_to_recordset($3::jsonb) AS r(key text, fingerprint text, skill text,
              level int, "estimatedDifficulty" float8, instruction text, spec jsonb)`,
      [run.id, generationId, JSON.stringify(rows)],
    );
    await refreshDataStats(client, generationId);
    await client.query(
      `INSERT INTO "AuditEvent" ("runId", action, "targetType", "targetId", details)
       VALUES ($1, 'tasks.import', 'run', $2, $3)`,
      [
        run.id,
        String(run.id),
        JSON.stringify({
          actor: options.actor ?? null,
          imported: rows.length,
          duplicates: duplicates.length,
        }),
      ],
    );
    duplicates.sort((a, b) => a.line - b.line);
    return { imported: rows.length, duplicates, errors: [], isDryRun };
  });
}

async function loadFingerprints(
  db: Pick<Pool, "query">,
  runId: number,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: number; fingerprint: string }>(
    `SELECT id, fingerprint FROM "Task" WHERE "runId" = $1`,
    [runId],
  );
  return new Map(rows.map((row) => [row.fingerprint, row.id]));
}

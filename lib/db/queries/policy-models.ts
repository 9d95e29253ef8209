import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import type { PolicyCheckpoint, Task } from "@/lib/engine/types";
import { loadCheckpoint, loadTasks } from "@/lib/jobs/engine-rows";

/**
 * Reads behind the dashboard's OpenAI-compatible policy endpoint. A run's checkpoints are served
 * as models named `<run slug>` (its newest checkpoint) or `<run slug>@v<version>`.
 */

type Db = Pick<Pool, "query">;

export type PolicyModelName = { slug: string; version: number | null };

export function parsePolicyModel(model: string): PolicyModelName {
  const match = /^(.+)@v(\d+)$/.exec(model);
  return match ? { slug: match[1]!, version: Number(match[2]) } : { slug: model, version: null };
}

/** `<slug>` and `<slug>@v<newest>` for every active run with a stored checkpoint, newest run first. */
export async function listPolicyModels(db: Db = getPool()): Promise<string[]> {
  const { rows } = await db.query<{ slug: string; version: number }>(
    `SELECT r.slug, max(c.version)::int AS version
       FROM "Run" r JOIN "PolicyCheckpoint" c ON c."runId" = r.id AND c.weights IS NOT NULL
      WHERE r.status = 'ACTIVE'
      GROUP BY r.id ORDER BY r."createdAt" DESC, r.id DESC`,
  );
  return rows.flatMap((row) => [row.slug, `${row.slug}@v${row.version}`]);
}

async function findRun(db: Db, slug: string) {
  const { rows } = await db.query<{ id: number; environment: string }>(
    `SELECT id, environment FROM "Run" WHERE slug = $1`,
    [slug],
  );
  return rows[0] ?? null;
}

/** The checkpoint a model name points at, or null when the run or version does not exist. */
export async function loadPolicyForModel(
  model: string,
  db: Db = getPool(),
): Promise<PolicyCheckpoint | null> {
  const { slug, version } = parsePolicyModel(model);
  const run = await findRun(db, slug);
  if (!run) return null;
  const { rows } = await db.query<{ version: number }>(
    `SELECT version FROM "PolicyCheckpoint"
      WHERE "runId" = $1 AND weights IS NOT NULL AND ($2::int IS NULL OR version = $2)
      ORDER BY version DESC LIMIT 1`,
    [run.id, version],
  );
  if (!rows[0]) return null;
  return loadCheckpoint(db as Parameters<typeof loadCheckpoint>[0], {
    runId: run.id,
    version: rows[0].version,
  });
}

/**
 * The run's tasks a conversation may be about: the one whose engine id is `taskId`, else every
 * task with exactly this instruction (the caller refuses an ambiguous match).
 */
export async function findPolicyTasks(
  query: { model: string; taskId: string | null; instruction: string },
  db: Db = getPool(),
): Promise<Task[]> {
  const run = await findRun(db, parsePolicyModel(query.model).slug);
  if (!run) return [];
  const { rows } = await db.query<{ id: number }>(
    query.taskId !== null
      ? `SELECT id FROM "Task" WHERE "runId" = $1 AND key = $2`
      : `SELECT id FROM "Task" WHERE "runId" = $1 AND instruction = $2 ORDER BY id LIMIT 2`,
    [run.id, query.taskId ?? query.instruction],
  );
  if (rows.length === 0) return [];
  const stored = await loadTasks(db as Parameters<typeof loadTasks>[0], {
    runId: run.id,
    environment: run.environment,
    filter: { ids: rows.map((r) => r.id) },
  });
  return stored.map((s) => s.task);
}

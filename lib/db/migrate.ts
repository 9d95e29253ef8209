import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { AppError } from "@/lib/errors";

/**
 * Applies prisma/migrations/<name>/migration.sql in order. Prisma's own `migrate deploy` needs a
 * schema-engine binary this machine cannot download, so this small runner does its job and keeps
 * its bookkeeping: the same `_prisma_migrations` table, the same SHA-256 checksums and the same
 * advisory lock key, so the real `prisma migrate deploy` agrees with it wherever it can run.
 */

export const DEFAULT_MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/** Prisma Migrate's advisory lock key: holding it excludes both our runner and Prisma's. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

export type MigrateOptions = {
  connectionString: string;
  migrationsDir?: string;
  log?: (line: string) => void;
};

export type MigrateResult = {
  applied: string[];
  alreadyApplied: string[];
};

type MigrationFile = { name: string; sql: string; checksum: string };

export function readMigrations(migrationsDir: string): MigrationFile[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const client = new Client({ connectionString: options.connectionString });
  await client.connect();
  try {
    // Session-level lock: a second process starting at the same time waits here, then finds
    // every migration applied and does nothing.
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum"            VARCHAR(64) NOT NULL,
        "finished_at"         TIMESTAMPTZ,
        "migration_name"      VARCHAR(255) NOT NULL,
        "logs"                TEXT,
        "rolled_back_at"      TIMESTAMPTZ,
        "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
       WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const recorded = new Map(rows.map((row) => [row.migration_name, row]));

    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const record = recorded.get(migration.name);
      if (record?.finished_at === null) {
        throw new AppError(
          "CONFLICT",
          `Migration ${migration.name} started earlier but never finished.`,
          {
            hint: "Inspect the database, fix it by hand, then mark the row in _prisma_migrations as rolled back.",
          },
        );
      }
      if (record) {
        if (record.checksum !== migration.checksum) {
          throw new AppError(
            "CONFLICT",
            `Migration ${migration.name} was changed after it was applied to this database ` +
              `(checksum ${record.checksum.slice(0, 12)}… recorded, ${migration.checksum.slice(0, 12)}… on disk).`,
            {
              hint: "Never edit an applied migration: restore its file and put the change in a new migration.",
            },
          );
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await applyMigration(client, migration);
      log(`applied migration ${migration.name}`);
      result.applied.push(migration.name);
    }
    const known = new Set(migrations.map((migration) => migration.name));
    const unknown = rows.filter((row) => !known.has(row.migration_name));
    if (unknown.length > 0) {
      log(
        `warning: the database has migrations this checkout does not: ${unknown.map((row) => row.migration_name).join(", ")}`,
      );
    }
    return result;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** All of a migration or none of it: its SQL and its bookkeeping row commit together. */
async function applyMigration(client: Client, migration: MigrationFile): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new AppError(
      "INTERNAL",
      `Migration ${migration.name} failed: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

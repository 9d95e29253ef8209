import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from "@/lib/db/migrate";
import { createScratchDatabase, withClient, type ScratchDatabase } from "@/tests/support/db";

const scratch: ScratchDatabase[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((database) => database.drop()));
});

async function freshDatabase(): Promise<string> {
  const database = await createScratchDatabase("migrate");
  scratch.push(database);
  return database.url;
}

function copyOfMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-migrations-"));
  fs.cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

function appliedRows(url: string) {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return rows;
  });
}

describe("migrate", () => {
  it("applies every migration once and records Prisma-compatible checksums", async () => {
    const url = await freshDatabase();
    const migrations = readMigrations(DEFAULT_MIGRATIONS_DIR);

    const result = await migrate({ connectionString: url });

    expect(result.applied).toEqual(migrations.map((migration) => migration.name));
    expect(await appliedRows(url)).toEqual(
      migrations.map((migration) => ({
        migration_name: migration.name,
        checksum: migration.checksum,
      })),
    );
    const tables = await withClient(url, (client) =>
      client.query(`SELECT to_regclass('public."Trajectory"') AS name`),
    );
    expect(tables.rows[0].name).toBe('"Trajectory"');
  });

  it("is a no-op the second time", async () => {
    const url = await freshDatabase();
    await migrate({ connectionString: url });

    const second = await migrate({ connectionString: url });

    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied.length).toBe(readMigrations(DEFAULT_MIGRATIONS_DIR).length);
    expect((await appliedRows(url)).length).toBe(second.alreadyApplied.length);
  });

  it("applies each migration exactly once when processes start at the same time", async () => {
    const url = await freshDatabase();
    const count = readMigrations(DEFAULT_MIGRATIONS_DIR).length;

    const results = await Promise.all(
      Array.from({ length: 6 }, () => migrate({ connectionString: url })),
    );

    expect(results.flatMap((result) => result.applied)).toHaveLength(count);
    expect(results.filter((result) => result.applied.length > 0)).toHaveLength(1);
    expect(await appliedRows(url)).toHaveLength(count);
  });

  it("refuses an applied migration whose file changed, naming it, and changes nothing", async () => {
    const url = await freshDatabase();
    const dir = copyOfMigrations();
    await migrate({ connectionString: url, migrationsDir: dir });
    const [first] = readMigrations(dir);
    const file = path.join(dir, first!.name, "migration.sql");
    fs.appendFileSync(file, "\nCREATE TABLE sneaky (id int);\n");

    await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      new RegExp(`Migration ${first!.name} was changed after it was applied`),
    );

    const sneaky = await withClient(url, (client) =>
      client.query(`SELECT to_regclass('public.sneaky') AS name`),
    );
    expect(sneaky.rows[0].name).toBeNull();
  });

  it("applies only new migrations, and rolls back a failing one completely", async () => {
    const url = await freshDatabase();
    const dir = copyOfMigrations();
    await migrate({ connectionString: url, migrationsDir: dir });

    fs.mkdirSync(path.join(dir, "29990101000000_add_note"));
    fs.writeFileSync(
      path.join(dir, "29990101000000_add_note", "migration.sql"),
      `ALTER TABLE "Run" ADD COLUMN "note" TEXT;`,
    );
    fs.mkdirSync(path.join(dir, "29990102000000_broken"));
    fs.writeFileSync(
      path.join(dir, "29990102000000_broken", "migration.sql"),
      `CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;`,
    );

    await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /Migration 29990102000000_broken failed: .*no_such_table/,
    );

    const names = (await appliedRows(url)).map((row) => row.migration_name);
    expect(names).toContain("29990101000000_add_note");
    expect(names).not.toContain("29990102000000_broken");
    const halfDone = await withClient(url, (client) =>
      client.query(`SELECT to_regclass('public.half_done') AS name`),
    );
    expect(halfDone.rows[0].name).toBeNull();
  });
});

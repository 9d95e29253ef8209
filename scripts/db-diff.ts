/**
 * `npm run db:diff -- <migration_name> [--from <git rev>]`: writes the SQL that takes the schema
 * at <git rev> (default HEAD) to the working copy's prisma/schema.prisma into a new
 * prisma/migrations/<timestamp>_<migration_name>/migration.sql. Uses a throwaway embedded
 * Postgres because the Prisma 6 CLI wants one even for a pure diff.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { diffSchemaSql } from "./lib/prisma-diff";

const args = process.argv.slice(2);
const name = args.find((arg) => !arg.startsWith("--"));
const fromIndex = args.indexOf("--from");
const fromRev = fromIndex >= 0 ? args[fromIndex + 1] : "HEAD";
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:diff -- <migration_name in snake_case> [--from <git rev>]");
  process.exit(1);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-db-diff-"));
fs.chmodSync(work, 0o755);
const fromSchema = path.join(work, "from.prisma");
fs.writeFileSync(
  fromSchema,
  execFileSync("git", ["show", `${fromRev}:prisma/schema.prisma`], { encoding: "utf8" }),
);
const server = await startEmbeddedPostgres({ dataDir: path.join(work, "pg"), isEphemeral: true });
try {
  const sql = diffSchemaSql({
    fromSchema,
    toSchema: path.join("prisma", "schema.prisma"),
    databaseUrl: server.urlFor("postgres"),
  });
  if (!sql.trim() || /^-- This is an empty migration/m.test(sql)) {
    console.log("schema.prisma has no changes since", fromRev);
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join("prisma", "migrations", `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(
      `wrote ${dir}/migration.sql — review it, then run the tests (the drift test checks it)`,
    );
  }
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

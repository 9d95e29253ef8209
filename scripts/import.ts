/**
 * npm run import -- --run <slug> --file tasks.jsonl [--format jsonl|csv] [--dry-run]
 *
 * Imports seed tasks (lib/import/format.ts) into a run, all of the file or nothing, and prints a
 * JSON summary {imported, duplicates, errors: [{line, message}]}. Exit 1 if any line is bad,
 * 2 on bad flags, an unknown run or an unreachable environment.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { importTasks } from "@/lib/db/mutations/import-tasks";
import { isAppError } from "@/lib/errors";
import { IMPORT_FORMATS, type ImportFormat } from "@/lib/import/format";
import { formatImportError } from "@/lib/import/prepare";
import { withAppDatabase } from "./lib/cli-database";

const USAGE =
  "usage: npm run import -- --run <slug> --file <tasks.jsonl|tasks.csv> [--format jsonl|csv] [--dry-run]";

function fail(message: string): never {
  console.error(`error: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function readFlags() {
  let values;
  try {
    values = parseArgs({
      options: {
        run: { type: "string" },
        file: { type: "string" },
        format: { type: "string" },
        "dry-run": { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (!values.run) fail("--run is required");
  if (!values.file) fail("--file is required");
  const format =
    values.format ?? (path.extname(values.file).toLowerCase() === ".csv" ? "csv" : "jsonl");
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    fail(`--format must be one of ${IMPORT_FORMATS.join(", ")}, got ${format}`);
  }
  if (!fs.existsSync(values.file)) fail(`no such file: ${values.file}`);
  return {
    slug: values.run,
    file: values.file,
    format: format as ImportFormat,
    isDryRun: values["dry-run"],
  };
}

async function main() {
  const flags = readFlags();
  const summary = await withAppDatabase((pool) =>
    importTasks({
      pool,
      slug: flags.slug,
      source: fs.createReadStream(flags.file),
      format: flags.format,
      isDryRun: flags.isDryRun,
      actor: "cli",
    }),
  );
  console.log(JSON.stringify(summary, null, 2));
  for (const error of summary.errors) console.error(formatImportError(error));
  process.exit(summary.errors.length > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  if (isAppError(error)) {
    console.error(`error: ${error.message}${error.hint ? `\n${error.hint}` : ""}`);
    process.exit(error.code === "NOT_FOUND" || error.code === "UNAVAILABLE" ? 2 : 1);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

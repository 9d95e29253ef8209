/**
 * npm run export -- --run <slug> [--generation N] [--format jsonl|parquet|tasks]
 *                   [--purpose train|eval|all] [--status approved|all] --out <file|->
 *
 * Streams a run's (or one generation's) trajectories as OpenAI chat/tool-call JSONL or Parquet,
 * or its training tasks in the import format. Exit 2 on bad flags, an unknown run/generation or an
 * unreachable environment.
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { prepareExport } from "@/lib/export/create-export";
import { isAppError } from "@/lib/errors";
import { ExportQuerySchema } from "@/lib/validations/export";
import { withAppDatabase } from "./lib/cli-database";

const USAGE = `usage: npm run export -- --run <slug> [--generation N] [--format jsonl|parquet|tasks]
                         [--purpose train|eval|all] [--status approved|all] --out <file|->`;

function fail(message: string): never {
  console.error(`error: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function readFlags() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        run: { type: "string" },
        generation: { type: "string" },
        format: { type: "string" },
        purpose: { type: "string" },
        status: { type: "string" },
        out: { type: "string" },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (!parsed.run) fail("--run is required");
  if (!parsed.out) fail("--out is required (a file path, or - for stdout)");
  const query = ExportQuerySchema.safeParse({
    generation: parsed.generation,
    format: parsed.format,
    purpose: parsed.purpose,
    status: parsed.status,
  });
  if (!query.success) {
    const fields = z.flattenError(query.error).fieldErrors;
    fail(
      Object.entries(fields)
        .map(([field, messages]) => `--${field}: ${messages?.join("; ")}`)
        .join("\n"),
    );
  }
  return { slug: parsed.run, out: parsed.out, query: query.data };
}

async function main() {
  const { slug, out, query } = readFlags();
  await withAppDatabase(async (pool) => {
    const started = performance.now();
    const prepared = await prepareExport({ db: pool, slug, ...query });
    console.error(`exporting ${prepared.total} rows of ${prepared.run.slug} (${query.format})`);
    // A file is written beside and renamed when complete: an export that fails half-way (the
    // database or a remote environment gone) leaves no truncated file that looks finished.
    const partial = `${out}.partial`;
    const target = out === "-" ? process.stdout : fs.createWriteStream(partial);
    let bytes = 0;
    try {
      await pipeline(
        Readable.from(prepared.body),
        async function* count(source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            bytes += chunk.byteLength;
            yield chunk;
          }
        },
        target,
      );
    } catch (error) {
      if (out !== "-") fs.rmSync(partial, { force: true });
      throw error;
    }
    if (out !== "-") fs.renameSync(partial, out);
    const seconds = (performance.now() - started) / 1000;
    console.error(
      `wrote ${prepared.total} rows, ${(bytes / 1e6).toFixed(1)} MB to ${out === "-" ? "stdout" : out} in ${seconds.toFixed(1)} s`,
    );
  });
}

main().catch((error: unknown) => {
  if (isAppError(error)) {
    console.error(`error: ${error.message}${error.hint ? `\n${error.hint}` : ""}`);
    process.exit(["NOT_FOUND", "INVALID_INPUT", "UNAVAILABLE"].includes(error.code) ? 2 : 1);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

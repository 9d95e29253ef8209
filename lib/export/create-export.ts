import { createSemaphore } from "@/lib/engine/semaphore";
import type { Pool } from "pg";
import {
  countExportTasks,
  countExportTrajectories,
  getExportRun,
  iterateExportTasks,
  iterateExportTrajectories,
  listExportGenerations,
  type ExportPurpose,
  type ExportRun,
} from "@/lib/db/queries/export";
import { AppError } from "@/lib/errors";
import { environmentOfRun } from "@/lib/import/environment";
import type { ExportQuery } from "@/lib/validations/export";
import { parseRunConfig } from "@/lib/validations/run-config";
import { toChatRecord, type ChatRecord } from "./chat-format";
import { encodeParquet } from "./parquet";

import { toPortableTask } from "./task-format";

/** Reference solutions asked of the environment at once while exporting tasks. */
const REFERENCE_CONCURRENCY = 8;

export type ExportOptions = ExportQuery & {
  db: Pick<Pool, "query">;
  slug: string;
  /** Rows per database round trip. */
  batchSize?: number;
  /** Opens a remote environment's saved API key; defaults to the app's key. */
  secretKey?: Buffer;
};

export type PreparedExport = {
  run: ExportRun;
  /** Rows (trajectories, or tasks for the tasks format) the body will hold. */
  total: number;
  filename: string;
  contentType: string;
  /** Pull-based: each chunk is produced when the consumer asks for it (backpressure). */
  body: AsyncIterable<Uint8Array>;
};

const PURPOSES: Record<ExportQuery["purpose"], ExportPurpose[]> = {
  train: ["TRAIN"],
  eval: ["EVAL"],
  all: ["TRAIN", "EVAL", "VALIDATION"],
};

const encoder = new TextEncoder();

async function* jsonLines<T, U>(
  batches: AsyncIterable<T[]>,
  transform: (rows: T[]) => U[] | Promise<U[]>,
  serialize: (record: U) => string = JSON.stringify,
): AsyncGenerator<Uint8Array> {
  for await (const rows of batches) {
    const records = await transform(rows);
    let text = "";
    for (const record of records) text += serialize(record) + "\n";
    yield encoder.encode(text);
  }
}

/**
 * The tool schemas are the same on every line and about half of its bytes: serialized once.
 * Key order matches JSON.stringify of the record, so the output is byte-identical to it.
 */
function chatRecordSerializer(tools: ChatRecord["tools"]): (record: ChatRecord) => string {
  const toolsJson = JSON.stringify(tools);
  return (record) =>
    `{"messages":${JSON.stringify(record.messages)},"tools":${toolsJson},` +
    `"reward":${JSON.stringify(record.reward)},"advantage":${JSON.stringify(record.advantage)},` +
    `"metadata":${JSON.stringify(record.metadata)}}`;
}

/**
 * Resolves what to export and counts it; the body streams when read. Unknown runs and
 * generations are refused before any byte is sent, so a route can still answer 404.
 */
export async function prepareExport(options: ExportOptions): Promise<PreparedExport> {
  const { db } = options;
  const run = await getExportRun({ db, slug: options.slug });
  if (!run) throw new AppError("NOT_FOUND", `Run "${options.slug}" does not exist.`);
  const generations = await listExportGenerations({
    db,
    runId: run.id,
    index: options.generation,
  });
  if (options.generation !== undefined && generations.length === 0) {
    throw new AppError("NOT_FOUND", `Run "${run.slug}" has no generation ${options.generation}.`);
  }
  // Before any byte: an unreachable remote environment is an error the caller can still answer.
  const environment = await environmentOfRun({
    db,
    runId: run.id,
    config: parseRunConfig(run.config),
    secretKey: options.secretKey,
  });
  const stem = `${run.slug}${options.generation === undefined ? "" : `-gen${options.generation}`}`;

  if (options.format === "tasks") {
    const scope = {
      db,
      runId: run.id,
      generationIds: options.generation === undefined ? null : generations.map((g) => g.id),
      status: options.status,
      batchSize: options.batchSize,
    };
    const referenceCalls = createSemaphore(REFERENCE_CONCURRENCY);
    return {
      run,
      total: await countExportTasks(scope),
      filename: `${stem}-tasks.jsonl`,
      contentType: "application/x-ndjson; charset=utf-8",
      // Each task asks the environment for its reference solution: a remote one gets a few
      // requests at a time, not a batch's thousand at once (its session and rate limits).
      body: jsonLines(iterateExportTasks(scope), (rows) =>
        Promise.all(
          rows.map((row) =>
            referenceCalls.run(() => toPortableTask(row, { run: run.slug, environment })),
          ),
        ),
      ),
    };
  }

  const scope = {
    db,
    runId: run.id,
    generations,
    purposes: PURPOSES[options.purpose],
    status: options.status,
    batchSize: options.batchSize,
  };
  const tools = environment.tools();
  const toRecords = (rows: Parameters<typeof toChatRecord>[0][]): ChatRecord[] =>
    rows.map((row) => toChatRecord(row, { run: run.slug, tools }));
  const total = await countExportTrajectories(scope);
  if (options.format === "parquet") {
    return {
      run,
      total,
      filename: `${stem}-trajectories.parquet`,
      contentType: "application/vnd.apache.parquet",
      body: encodeParquet(mapBatches(iterateExportTrajectories(scope), toRecords)),
    };
  }
  return {
    run,
    total,
    filename: `${stem}-trajectories.jsonl`,
    contentType: "application/x-ndjson; charset=utf-8",
    body: jsonLines(iterateExportTrajectories(scope), toRecords, chatRecordSerializer(tools)),
  };
}

async function* mapBatches<T, U>(
  batches: AsyncIterable<T[]>,
  transform: (rows: T[]) => U[],
): AsyncGenerator<U[]> {
  for await (const rows of batches) yield transform(rows);
}

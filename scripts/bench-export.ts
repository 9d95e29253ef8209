/**
 * npm run bench:export [-- --trajectories 200000 --samples 100 --formats jsonl,parquet]
 *
 * Seeds a run with real ToolWorld tasks and trajectories (one COPY stream) on a throwaway
 * embedded Postgres of its own, then streams the export of every format through the same code
 * the CLI and the HTTP route use, into a byte counter, and prints rows/s, MB/s and the peak RSS
 * of this process next to the size of the file: flat memory means peak RSS stays far below it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "pg";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";
import { prepareExport } from "@/lib/export/create-export";
import { ExportQuerySchema, EXPORT_FORMATS, type ExportFormat } from "@/lib/validations/export";
import { seedExportRun } from "@/tests/support/export-fixtures";

const { values: args } = parseArgs({
  options: {
    trajectories: { type: "string", default: "200000" },
    samples: { type: "string", default: "100" },
    formats: { type: "string", default: "jsonl,parquet" },
  },
});
const SAMPLES = Number(args.samples);
const TASKS = Math.ceil(Number(args.trajectories) / SAMPLES);
const FORMATS = args.formats.split(",") as ExportFormat[];
for (const format of FORMATS) {
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`unknown format ${format}`);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function measure(pool: Pool, slug: string, format: ExportFormat) {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const prepared = await prepareExport({
    db: pool,
    slug,
    ...ExportQuerySchema.parse({ format, status: "all" }),
  });
  let bytes = 0;
  for await (const chunk of prepared.body) {
    bytes += chunk.byteLength;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${format.padEnd(8)} ${prepared.total} rows · ${mb(bytes)} in ${seconds.toFixed(1)} s · ` +
      `${Math.round(prepared.total / seconds)} rows/s · ${(bytes / 1e6 / seconds).toFixed(1)} MB/s · ` +
      `peak RSS ${mb(peakRss)} (${mb(rssBefore)} before; +${mb(peakRss - rssBefore)})`,
  );
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-bench-export-"));
  fs.chmodSync(root, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(root, "data"),
    isEphemeral: true,
  });
  const pool = new Pool({ connectionString: server.urlFor("bench"), max: 4 });
  try {
    await ensureDatabase(server.urlFor("postgres"), "bench");
    await migrate({ connectionString: server.urlFor("bench") });
    const seeding = performance.now();
    const run = await seedExportRun(pool, { name: "bench", tasks: TASKS, samplesPerTask: SAMPLES });
    console.log(
      `seeded ${TASKS} tasks × ${SAMPLES} = ${TASKS * SAMPLES} trajectories in ` +
        `${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    for (const format of FORMATS) await measure(pool, run.slug, format);
  } finally {
    await pool.end();
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

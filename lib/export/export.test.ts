import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { encodeParquet } from "./parquet";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import { isAppError } from "@/lib/errors";
import { ExportQuerySchema, type ExportQuery } from "@/lib/validations/export";
import { seedExportRun, type SeededRun } from "@/tests/support/export-fixtures";
import { testDatabaseUrl } from "@/tests/support/db";
import type { ChatRecord } from "./chat-format";
import { prepareExport } from "./create-export";

let pool: Pool;
let run: SeededRun;
const SAMPLES = 4;

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  // 12 tasks: 9 approved, 2 pending (5, 11), 1 rejected (6).
  run = await seedExportRun(pool, {
    name: "fmt",
    tasks: 12,
    samplesPerTask: SAMPLES,
    hasEval: true,
    unapprovedEvery: 6,
  });
});

afterAll(async () => {
  await pool?.end();
});

const query = (input: Partial<Record<keyof ExportQuery, unknown>> = {}) =>
  ExportQuerySchema.parse(input);

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function exportLines(input: Partial<Record<keyof ExportQuery, unknown>> = {}) {
  const prepared = await prepareExport({ db: pool, slug: run.slug, ...query(input) });
  const text = (await collect(prepared.body)).toString("utf8");
  const lines = text.split("\n").filter((line) => line !== "");
  for (const line of lines) expect(line).toBe(JSON.stringify(JSON.parse(line)));
  return { prepared, records: lines.map((line) => JSON.parse(line)) };
}

const approved = () => run.tasks.filter((t) => t.task.review.status === "approved");

describe("JSONL trajectory export", () => {
  it("writes one OpenAI chat/tool-call conversation per approved training trajectory", async () => {
    const { prepared, records } = await exportLines();
    expect(approved()).toHaveLength(9);
    expect(prepared.total).toBe(9 * SAMPLES);
    expect(records).toHaveLength(prepared.total);
    expect(prepared.filename).toBe(`${run.slug}-trajectories.jsonl`);

    const tools = createToolWorld().tools();
    const byKey = new Map(run.tasks.map((t) => [t.task.id, t.task]));
    for (const record of records as ChatRecord[]) {
      expect(Object.keys(record)).toEqual(["messages", "tools", "reward", "advantage", "metadata"]);
      const task = byKey.get(record.metadata.taskKey)!;
      expect(task.review.status).toBe("approved");
      expect(record.metadata).toMatchObject({
        run: run.slug,
        generation: 0,
        skill: task.skill,
        level: task.level,
        purpose: "train",
      });
      expect(record.tools).toEqual(tools);
      expect(typeof record.reward).toBe("number");
      expect(record.advantage).toBe(record.metadata.success ? 0.5 : -0.5);

      const [system, user, ...rest] = record.messages;
      expect(system).toMatchObject({ role: "system" });
      expect(user).toEqual({ role: "user", content: task.instruction });
      const reference = createToolWorld().local!.referenceSolution(task);
      const calls = reference.filter((c) => c.tool !== "finish");
      expect(rest).toHaveLength(calls.length * 2 + 1);
      calls.forEach((call, i) => {
        const assistant = rest[2 * i]!;
        const tool = rest[2 * i + 1]!;
        if (assistant.role !== "assistant" || tool.role !== "tool") throw new Error("roles");
        const toolCall = assistant.tool_calls![0]!;
        expect(toolCall.type).toBe("function");
        expect(toolCall.function.name).toBe(call.tool);
        expect(typeof toolCall.function.arguments).toBe("string");
        expect(JSON.parse(toolCall.function.arguments)).toEqual(call.arguments);
        expect(tool.tool_call_id).toBe(toolCall.id);
        expect(tool.name).toBe(call.tool);
        expect(() => JSON.parse(tool.content)).not.toThrow();
      });
      const ids = rest.flatMap((m) =>
        m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : [],
      );
      expect(new Set(ids).size).toBe(ids.length);
      const last = rest[rest.length - 1]!;
      expect(last.role).toBe("assistant");
      if (last.role === "assistant") {
        expect(last.tool_calls).toBeUndefined();
        const finish = reference.find((c) => c.tool === "finish")!;
        expect(last.content).toBe(finish.arguments.answer ?? "");
      }
    }
  });

  it("filters by purpose and review status, and counts what it will write", async () => {
    const all = await exportLines({ purpose: "all", status: "all" });
    expect(all.prepared.total).toBe(12 * SAMPLES * 2);
    expect(all.records).toHaveLength(all.prepared.total);
    const evalOnly = await exportLines({ purpose: "eval", generation: "0" });
    expect(evalOnly.records).toHaveLength(9 * SAMPLES);
    expect(evalOnly.records.every((r: ChatRecord) => r.metadata.purpose === "eval")).toBe(true);
    expect(evalOnly.prepared.filename).toBe(`${run.slug}-gen0-trajectories.jsonl`);
  });

  it("refuses an unknown run or generation before streaming anything", async () => {
    const unknownRun = await prepareExport({ db: pool, slug: "no-such-run", ...query() }).catch(
      (error: unknown) => error,
    );
    expect(isAppError(unknownRun) && unknownRun.code).toBe("NOT_FOUND");
    expect((unknownRun as Error).message).toBe('Run "no-such-run" does not exist.');
    const unknownGeneration = await prepareExport({
      db: pool,
      slug: run.slug,
      ...query({ generation: 9 }),
    }).catch((error: unknown) => error);
    expect((unknownGeneration as Error).message).toBe(`Run "${run.slug}" has no generation 9.`);
  });
});

describe("Parquet trajectory export", () => {
  it("reads back with hyparquet as the same rows the JSONL export writes", async () => {
    const jsonl = await exportLines({ purpose: "all", status: "all" });
    const prepared = await prepareExport({
      db: pool,
      slug: run.slug,
      ...query({ purpose: "all", status: "all", format: "parquet" }),
      batchSize: 7, // many small batches
    });
    const bytes = await collect(prepared.body);
    expect(bytes.subarray(0, 4).toString()).toBe("PAR1");
    const file = new Uint8Array(bytes).buffer;
    const rows = await parquetReadObjects({ file });
    expect(rows).toHaveLength(jsonl.records.length);
    const parse = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
    rows.forEach((row, i) => {
      const record = jsonl.records[i] as ChatRecord;
      expect(parse(row.messages)).toEqual(record.messages);
      expect(parse(row.tools)).toEqual(record.tools);
      expect(row.reward).toBe(record.reward);
      expect(row.advantage).toBe(record.advantage);
      expect(row.success).toBe(record.metadata.success);
      expect(row.task_key).toBe(record.metadata.taskKey);
      expect(row.sample_index).toBe(record.metadata.sampleIndex);
      expect(row.purpose).toBe(record.metadata.purpose);
    });
    // Small batches are gathered into row groups of ~5000 rows rather than one group per batch.
    expect(parquetMetadata(file).row_groups.length).toBe(1);
  });

  it("writes out each row group as it completes, and the file reads back whole", async () => {
    const jsonl = await exportLines({ purpose: "all", status: "all" });
    const records = jsonl.records as ChatRecord[];
    async function* batchesOf(size: number) {
      for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size);
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of encodeParquet(batchesOf(7), { rowGroupRows: 10 })) chunks.push(chunk);
    const groups = Math.ceil(records.length / 14); // two batches of 7 fill a group of ≥ 10
    expect(records.length).toBeGreaterThan(30);
    // Bytes leave after every group (the header and first group before the file is done).
    expect(chunks.length).toBeGreaterThan(groups);
    const file = new Uint8Array(Buffer.concat(chunks)).buffer;
    expect(parquetMetadata(file).row_groups.length).toBe(groups);
    const rows = await parquetReadObjects({ file });
    expect(rows.map((row) => row.task_key)).toEqual(records.map((r) => r.metadata.taskKey));
  });
});

describe("streaming", () => {
  it("exports 50k trajectories with memory bounded by a batch, not by the file", async () => {
    const big = await seedExportRun(pool, { name: "big", tasks: 500, samplesPerTask: 100 });
    const prepared = await prepareExport({ db: pool, slug: big.slug, ...query() });
    expect(prepared.total).toBe(50_000);
    global.gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let bytes = 0;
    let lines = 0;
    let chunks = 0;
    for await (const chunk of prepared.body) {
      chunks++;
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(lines).toBe(50_000);
    expect(chunks).toBe(50); // one chunk per 1000-row batch
    // The whole file would be held if nothing streamed; the heap grows by a fraction of it.
    expect(bytes).toBeGreaterThan(50_000_000);
    expect(peak - baseline).toBeLessThan(bytes / 2);
  });
});

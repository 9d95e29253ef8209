import { ByteWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer";
import type { BasicType, ColumnSource } from "hyparquet-writer";
import type { ChatRecord } from "./chat-format";

/**
 * The chat records as Parquet, one row group per batch of records, written out as each group
 * completes (hyparquet-writer's ParquetWriter writes row groups incrementally and calls
 * `writer.flush()` after each). Nested columns are JSON text (Parquet JSON logical type):
 * pandas, pyarrow and 🤗 datasets all read them as strings, and `json.loads` gives the same
 * messages/tools as the JSONL export; scalar metadata are real typed columns for filtering.
 */

type Column = {
  name: string;
  type: BasicType;
  nullable: boolean;
  pick: (r: ChatRecord) => unknown;
};

const COLUMNS: Column[] = [
  { name: "messages", type: "JSON", nullable: false, pick: (r) => r.messages },
  { name: "tools", type: "JSON", nullable: false, pick: (r) => r.tools },
  { name: "reward", type: "DOUBLE", nullable: false, pick: (r) => r.reward },
  { name: "advantage", type: "DOUBLE", nullable: true, pick: (r) => r.advantage },
  { name: "success", type: "BOOLEAN", nullable: false, pick: (r) => r.metadata.success },
  { name: "run", type: "STRING", nullable: false, pick: (r) => r.metadata.run },
  { name: "generation", type: "INT32", nullable: false, pick: (r) => r.metadata.generation },
  { name: "task_key", type: "STRING", nullable: false, pick: (r) => r.metadata.taskKey },
  { name: "skill", type: "STRING", nullable: false, pick: (r) => r.metadata.skill },
  { name: "level", type: "INT32", nullable: false, pick: (r) => r.metadata.level },
  { name: "origin", type: "STRING", nullable: false, pick: (r) => r.metadata.origin },
  { name: "purpose", type: "STRING", nullable: false, pick: (r) => r.metadata.purpose },
  { name: "sample_index", type: "INT32", nullable: false, pick: (r) => r.metadata.sampleIndex },
  { name: "policy_version", type: "INT32", nullable: false, pick: (r) => r.metadata.policyVersion },
  { name: "side_effect", type: "BOOLEAN", nullable: false, pick: (r) => r.metadata.sideEffect },
  { name: "step_count", type: "INT32", nullable: false, pick: (r) => r.metadata.stepCount },
  { name: "end_reason", type: "STRING", nullable: true, pick: (r) => r.metadata.endReason },
  { name: "failure", type: "STRING", nullable: true, pick: (r) => r.metadata.failure },
  { name: "error", type: "STRING", nullable: true, pick: (r) => r.metadata.error },
];

export const PARQUET_COLUMNS = COLUMNS.map((c) => c.name);

function columnData(records: readonly ChatRecord[]): ColumnSource[] {
  return COLUMNS.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable,
    data: records.map(column.pick),
  }));
}

/** Bytes handed out after each row group instead of one growing file buffer. */
class ChunkWriter extends ByteWriter {
  readonly chunks: Uint8Array[] = [];
  flush() {
    if (this.index === 0) return;
    this.chunks.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }
  override finish() {
    this.flush();
  }
  drain(): Uint8Array[] {
    return this.chunks.splice(0, this.chunks.length);
  }
}

/** Row groups of at least this many rows: fewer, larger groups read faster and keep the footer small. */
export const ROW_GROUP_ROWS = 5000;

export async function* encodeParquet(
  batches: AsyncIterable<readonly ChatRecord[]>,
  options: { rowGroupRows?: number } = {},
): AsyncGenerator<Uint8Array> {
  const groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
  const writer = new ChunkWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData: columnData([]) }),
    createdBy: "coevolve-studio export",
  });
  let group: ChatRecord[] = [];
  const writeGroup = async () => {
    if (group.length === 0) return;
    await parquet.write({ columnData: columnData(group), rowGroupSize: group.length });
    group = [];
  };
  for await (const batch of batches) {
    for (const record of batch) group.push(record);
    if (group.length >= groupRows) {
      await writeGroup();
      yield* writer.drain();
    }
  }
  await writeGroup();
  await parquet.finish();
  yield* writer.drain();
}

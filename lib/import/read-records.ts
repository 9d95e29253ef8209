import { CSV_COLUMNS, REQUIRED_CSV_COLUMNS, type ImportFormat } from "./format";
import { MAX_LINE_CHARS, readLines, type ImportSource, type SourceLine } from "./read-lines";

/** A raw record before validation, or why it could not even be read. */
export type SourceRecord =
  { line: number; value: Record<string, unknown> } | { line: number; error: string };

const TOO_LONG = `line is longer than ${MAX_LINE_CHARS.toLocaleString("en-US")} characters`;

export async function* readRecords(
  source: ImportSource,
  format: ImportFormat,
): AsyncGenerator<SourceRecord> {
  yield* format === "csv" ? readCsv(readLines(source)) : readJsonl(readLines(source));
}

async function* readJsonl(lines: AsyncIterable<SourceLine>): AsyncGenerator<SourceRecord> {
  for await (const entry of lines) {
    if ("tooLong" in entry) {
      yield { line: entry.line, error: TOO_LONG };
      continue;
    }
    if (entry.text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(entry.text);
    } catch (error) {
      yield { line: entry.line, error: `not valid JSON (${(error as Error).message})` };
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      yield { line: entry.line, error: "expected a JSON object" };
      continue;
    }
    yield { line: entry.line, value: value as Record<string, unknown> };
  }
}

/** RFC 4180: a quoted field may hold commas, newlines and "" for a quote. */
function splitCsvRecord(text: string): string[] | null {
  const fields: string[] = [];
  let field = "";
  let isQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (isQuoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        isQuoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === "") {
      isQuoted = true;
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else {
      field += ch;
    }
  }
  if (isQuoted) return null;
  fields.push(field);
  return fields;
}

const countQuotes = (text: string) => text.split('"').length - 1;

/** Physical lines joined into records while a quoted field is open; numbered by their first line. */
async function* csvRecords(
  lines: AsyncIterable<SourceLine>,
): AsyncGenerator<{ line: number; text: string } | { line: number; error: string }> {
  let start = 0;
  let buffer: string | null = null;
  for await (const entry of lines) {
    if ("tooLong" in entry) {
      yield { line: buffer === null ? entry.line : start, error: TOO_LONG };
      buffer = null;
      continue;
    }
    if (buffer === null) {
      if (entry.text.trim() === "") continue;
      start = entry.line;
      buffer = entry.text;
    } else {
      buffer += "\n" + entry.text;
      if (buffer.length > MAX_LINE_CHARS) {
        yield { line: start, error: TOO_LONG };
        buffer = null;
        continue;
      }
    }
    if (countQuotes(buffer) % 2 === 0) {
      yield { line: start, text: buffer };
      buffer = null;
    }
  }
  if (buffer !== null) yield { line: start, error: "a quoted field is never closed" };
}

async function* readCsv(lines: AsyncIterable<SourceLine>): AsyncGenerator<SourceRecord> {
  let header: string[] | null = null;
  for await (const record of csvRecords(lines)) {
    if ("error" in record) {
      yield record;
      continue;
    }
    const fields = splitCsvRecord(record.text);
    if (!fields) {
      yield { line: record.line, error: "a quoted field is never closed" };
      continue;
    }
    if (header === null) {
      header = fields.map((f) => f.trim().toLowerCase());
      const unknown = header.filter((name) => !CSV_COLUMNS.includes(name));
      const missing = REQUIRED_CSV_COLUMNS.filter((name) => !header!.includes(name));
      if (unknown.length > 0 || missing.length > 0) {
        const problems = [
          missing.length > 0 ? `missing column(s) ${missing.join(", ")}` : null,
          unknown.length > 0 ? `unknown column(s) ${unknown.join(", ")}` : null,
        ].filter(Boolean);
        yield {
          line: record.line,
          error: `header: ${problems.join("; ")} (expected ${CSV_COLUMNS.join(", ")})`,
        };
        return;
      }
      continue;
    }
    if (fields.length !== header.length) {
      yield {
        line: record.line,
        error: `expected ${header.length} fields as in the header, got ${fields.length}`,
      };
      continue;
    }
    const value: Record<string, unknown> = {};
    const problems: string[] = [];
    header.forEach((name, i) => {
      const cell = fields[i]!;
      if (name === "instruction" || name === "skill") value[name] = cell;
      else if (cell.trim() === "") {
        if (name === "level" || name === "spec") value[name] = undefined;
      } else if (name === "level" || name === "difficulty") {
        value[name] = Number.isNaN(Number(cell)) ? cell : Number(cell);
      } else {
        try {
          value[name] = JSON.parse(cell);
        } catch (error) {
          problems.push(`${name}: not valid JSON (${(error as Error).message})`);
        }
      }
    });
    if (problems.length > 0) yield { line: record.line, error: problems.join("; ") };
    else yield { line: record.line, value };
  }
}

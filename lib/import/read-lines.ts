/** One line of an uploaded file, numbered from 1 as an editor shows it. */
export type SourceLine = { line: number; text: string } | { line: number; tooLong: true };

/** Longer lines are refused without being held in memory (a seed task is a few KB). */
export const MAX_LINE_CHARS = 1_000_000;

export type ImportSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/**
 * Splits a text stream into numbered lines (LF or CRLF). A line over MAX_LINE_CHARS is reported
 * as too long and skipped to its end, so one broken line cannot exhaust memory.
 */
export async function* readLines(source: ImportSource): AsyncGenerator<SourceLine> {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  let isOverflowing = false;
  let line = 1;
  const finishLine = (text: string): SourceLine => {
    const out: SourceLine = isOverflowing
      ? { line, tooLong: true }
      : { line, text: text.endsWith("\r") ? text.slice(0, -1) : text };
    isOverflowing = false;
    line++;
    return out;
  };
  for await (const chunk of source) {
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      if (pending.length + newline > MAX_LINE_CHARS) isOverflowing = true;
      yield finishLine(isOverflowing ? "" : pending + text.slice(0, newline));
      pending = "";
      text = text.slice(newline + 1);
      newline = text.indexOf("\n");
    }
    if (!isOverflowing) {
      pending += text;
      if (pending.length > MAX_LINE_CHARS) {
        isOverflowing = true;
        pending = "";
      }
    }
  }
  const rest = decoder.decode();
  if (!isOverflowing) pending += rest;
  if (pending.length > MAX_LINE_CHARS) isOverflowing = true;
  if (pending.length > 0 || isOverflowing) yield finishLine(pending);
}

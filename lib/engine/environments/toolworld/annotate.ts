import { CITIES, COMPANIES, EXTENSIONS, FOLDERS, MEMOS, MONTHS } from "./vocabulary";

export type MentionType =
  "NAME" | "CITY" | "COMPANY" | "FOLDER" | "EXT" | "MONTH" | "DATE" | "AMOUNT" | "MEMO" | "QUOTE";

/** An entity in the instruction, tagged with the content word before it ("from", "to", "of"…). */
export type Mention = { type: MentionType; value: string; tag: string };

export type Annotation = { mentions: Mention[]; words: string[] };

const STOPWORDS = new Set([
  "the",
  "a",
  "an",
  "my",
  "all",
  "every",
  "this",
  "that",
  "their",
  "your",
  "is",
  "are",
  "i",
  "me",
  "ones",
  "files",
  "file",
  "what",
  "then",
]);
const JOINERS = new Set(["and", "or", ","]);

const SINGLE: ReadonlyMap<string, "CITY" | "COMPANY" | "FOLDER" | "MONTH"> = new Map([
  ...CITIES.map((v) => [v, "CITY"] as const),
  ...COMPANIES.map((v) => [v, "COMPANY"] as const),
  ...FOLDERS.map((v) => [v, "FOLDER"] as const),
  ...MONTHS.map((v) => [v, "MONTH"] as const),
]);
const EXT_SET: ReadonlySet<string> = new Set(EXTENSIONS);
const MEMO_SET: ReadonlySet<string> = new Set(MEMOS);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT_RE = /^\$(\d+(?:\.\d+)?)$/;

/**
 * Finds entities in an instruction by matching the world's vocabulary — a stand-in for the NER a
 * builtin policy needs. It works on any instruction text, including ones written by an LLM.
 */
export function annotateInstruction(instruction: string, names: ReadonlySet<string>): Annotation {
  const quotes: string[] = [];
  const text = instruction.replace(/'([^']*)'/g, (_m, q: string) => {
    quotes.push(q);
    return ` \u0001${quotes.length - 1} `;
  });
  const tokens = text
    .replace(/,/g, " , ")
    .split(/\s+/)
    .map((t) => t.replace(/[.?!;:]+$/, ""))
    .filter((t) => t.length > 0);
  const mentions: Mention[] = [];
  const words: string[] = [];
  let tag = "start";
  let joined = false;
  const push = (type: MentionType, value: string) => {
    const previous = mentions[mentions.length - 1];
    const mentionTag = joined && previous ? previous.tag : tag;
    mentions.push({ type, value, tag: mentionTag });
    words.push(`<${type}>`);
    joined = false;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const next = tokens[i + 1];
    if (token.startsWith("\u0001")) {
      push("QUOTE", quotes[Number(token.slice(1))] ?? "");
      continue;
    }
    if (next !== undefined) {
      const pair = `${token} ${next}`;
      if (names.has(pair)) {
        push("NAME", pair);
        i++;
        continue;
      }
      if (MEMO_SET.has(pair)) {
        push("MEMO", pair);
        i++;
        continue;
      }
    }
    if (DATE_RE.test(token)) {
      push("DATE", token);
      continue;
    }
    const amount = AMOUNT_RE.exec(token);
    if (amount) {
      push("AMOUNT", amount[1] as string);
      continue;
    }
    const single = SINGLE.get(token);
    if (single) {
      push(single, token);
      continue;
    }
    const lower = token.toLowerCase();
    if (EXT_SET.has(lower)) {
      push("EXT", lower);
      continue;
    }
    if (MEMO_SET.has(lower)) {
      push("MEMO", lower);
      continue;
    }
    if (JOINERS.has(lower)) {
      joined = mentions.length > 0;
      continue;
    }
    joined = false;
    if (!STOPWORDS.has(lower)) {
      tag = lower;
      words.push(lower);
    }
  }
  return { mentions, words: [...new Set(words)] };
}

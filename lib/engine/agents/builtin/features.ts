import type { CandidateView } from "../../environment-types";
import { hashString } from "../../rng";

/** Hashed feature space size. Collisions are harmless noise at this size (a few k live features). */
export const FEATURE_DIM = 1 << 18;
const MASK = FEATURE_DIM - 1;

const hashCache = new Map<string, number>();

/** Strings repeat endlessly (tool names, words, facts): hash each once per process. */
export function tokenHash(token: string): number {
  let h = hashCache.get(token);
  if (h === undefined) {
    h = hashString(token, 0x5bd1e995);
    if (hashCache.size > 200_000) hashCache.clear();
    hashCache.set(token, h);
  }
  return h;
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const BIAS = tokenHash("#bias");
const PREV = tokenHash("#prev");
const STEP = tokenHash("#step");
const WORD = tokenHash("#word");
const FLAG = tokenHash("#flag");
const FACT = tokenHash("#fact");
const LEX = tokenHash("#lex");
const ANY_FACT = tokenHash("#any-fact");
const TOOL_WORD = tokenHash("#tool-word");

const toolTokens = new Map<string, string[]>();

/**
 * Does the instruction use a word from the tool's name ("cancel" → cancel_event, "pay" →
 * send_payment)? Tool-independent, so what the base policy learns from a few tools transfers to
 * tools it never saw — the kind of prior an LLM brings from reading tool names.
 */
function sharesToolWord(tool: string, words: readonly string[]): boolean {
  let tokens = toolTokens.get(tool);
  if (!tokens) {
    tokens = tool.split("_").filter((t) => t.length >= 3);
    toolTokens.set(tool, tokens);
  }
  for (const w of words) {
    if (w.length < 3 || w.startsWith("<")) continue;
    for (const t of tokens) if (t.startsWith(w) || w.startsWith(t)) return true;
  }
  return false;
}

/**
 * Feature indices per candidate: tool bias; previous tool × tool; step bucket × tool;
 * instruction word × tool; task-state flag × tool; fact × tool; and word × fact for lexical facts
 * (answer/text field vs "phone"/"email" in the instruction). Mostly tool-conjoined, so one weight
 * vector serves all tools; facts also appear on their own and the tool-word overlap is global, so
 * argument preferences ("the contact named after 'send'", "never repeat a call") transfer.
 */
export function extractFeatures(view: CandidateView, stepIndex: number): Int32Array[] {
  const words = view.words.map(tokenHash);
  const flags = view.flags.map(tokenHash);
  const prev = tokenHash(view.previousTool ?? "#none");
  const step = Math.min(stepIndex, 7);
  const out: Int32Array[] = [];
  for (const candidate of view.candidates) {
    const t = tokenHash(candidate.call.tool);
    const facts = candidate.facts;
    let lexical = 0;
    for (const f of facts) if (f.startsWith("L:")) lexical++;
    const toolWord = sharesToolWord(candidate.call.tool, view.words) ? 1 : 0;
    const size =
      3 + toolWord + words.length + flags.length + 2 * facts.length + lexical * words.length;
    const feats = new Int32Array(size);
    let n = 0;
    feats[n++] = mix(t, BIAS) & MASK;
    feats[n++] = mix(mix(t, PREV), prev) & MASK;
    feats[n++] = mix(mix(t, STEP), step) & MASK;
    if (toolWord) feats[n++] = mix(TOOL_WORD, 1) & MASK;
    const tw = mix(t, WORD);
    for (const w of words) feats[n++] = mix(tw, w) & MASK;
    const tg = mix(t, FLAG);
    for (const g of flags) feats[n++] = mix(tg, g) & MASK;
    const tf = mix(t, FACT);
    for (const f of facts) {
      const fh = tokenHash(f);
      feats[n++] = mix(tf, fh) & MASK;
      feats[n++] = mix(ANY_FACT, fh) & MASK;
      if (f.startsWith("L:")) {
        const tl = mix(mix(t, LEX), fh);
        for (const w of words) feats[n++] = mix(tl, w) & MASK;
      }
    }
    if (n !== size) throw new Error(`feature count ${n} ≠ ${size}`);
    out.push(feats);
  }
  return out;
}

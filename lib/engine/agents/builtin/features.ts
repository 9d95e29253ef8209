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

/**
 * Feature indices per candidate: tool bias; previous tool × tool; step bucket × tool;
 * instruction word × tool; task-state flag × tool; fact × tool; and word × fact for lexical facts
 * (answer/text field vs "phone"/"email" in the instruction). Tool-conjoined, so one weight vector
 * serves all tools.
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
    const size = 3 + words.length + flags.length + facts.length + lexical * words.length;
    const feats = new Int32Array(size);
    let n = 0;
    feats[n++] = mix(t, BIAS) & MASK;
    feats[n++] = mix(mix(t, PREV), prev) & MASK;
    feats[n++] = mix(mix(t, STEP), step) & MASK;
    const tw = mix(t, WORD);
    for (const w of words) feats[n++] = mix(tw, w) & MASK;
    const tg = mix(t, FLAG);
    for (const g of flags) feats[n++] = mix(tg, g) & MASK;
    const tf = mix(t, FACT);
    for (const f of facts) {
      const fh = tokenHash(f);
      feats[n++] = mix(tf, fh) & MASK;
      if (f.startsWith("L:")) {
        const tl = mix(mix(t, LEX), fh);
        for (const w of words) feats[n++] = mix(tl, w) & MASK;
      }
    }
    out.push(feats);
  }
  return out;
}

/**
 * Seeded randomness. Every random draw in the engine flows from here so a run is reproducible
 * from its seed, and rollout streams are derived from *what* is rolled out (run seed, generation,
 * task, sample, purpose) rather than *where* — a batch split differently or retried on another
 * worker draws the same numbers.
 */

export type Rng = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
};

/** 32-bit string hash (cyrb53's low lane, stable across platforms). */
export function hashString(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** 64-bit hex digest built from two independent 32-bit lanes; used for fingerprints and ids. */
export function hashHex(text: string): string {
  const a = hashString(text, 0x9e3779b9).toString(16).padStart(8, "0");
  const b = hashString(text, 0x85ebca6b).toString(16).padStart(8, "0");
  return a + b;
}

/** A uint32 seed derived from any list of parts; order matters, types do not collide. */
export function deriveSeed(...parts: ReadonlyArray<string | number>): number {
  return hashString(parts.map((p) => `${typeof p === "number" ? "n" : "s"}:${p}`).join("|"));
}

/** sfc32: fast, small state, good statistical quality; plenty for simulation. */
export function createRng(seed: number): Rng {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const nextU32 = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextU32();
  const next = (): number => nextU32() / 4294967296;
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(items.length)] as T;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
  };
}

export function createDerivedRng(...parts: ReadonlyArray<string | number>): Rng {
  return createRng(deriveSeed(...parts));
}

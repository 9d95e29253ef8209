/**
 * Ids as they arrive in URLs. Anything that cannot name a row is refused here, so a malformed
 * address is a not-found page rather than a database error (int4 overflow, bigint syntax).
 */

const MAX_INT4 = 2_147_483_647;
const MAX_INT8 = 9_223_372_036_854_775_807n;

/** A positive int4 id (tasks, runs…). */
export function isPlausibleIntId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= MAX_INT4;
}

/** A positive int4 id from a path segment, written plainly ("12", not "012", "1e3" or "+1"). */
export function parseIntId(value: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return isPlausibleIntId(id) ? id : null;
}

/** A generation index: 0 or a positive int4. */
export function parseGenerationIndex(value: string): number | null {
  return value === "0" ? 0 : parseIntId(value);
}

/** A positive int8 id (trajectories), kept as a string: it may not fit a JS number. */
export function parseBigIntId(value: string): string | null {
  if (!/^[1-9]\d{0,18}$/.test(value)) return null;
  return BigInt(value) <= MAX_INT8 ? value : null;
}

/**
 * Whether a request carries `Authorization: Bearer <key>`. The comparison takes the same time
 * wherever the strings differ, so response timing does not reveal how much of a guess was right.
 */
export function hasBearer(request: Request, key: string): boolean {
  const given = request.headers.get("authorization") ?? "";
  const expected = `Bearer ${key}`;
  let diff = given.length ^ expected.length;
  for (let i = 0; i < Math.max(given.length, expected.length); i++) {
    diff |= (given.charCodeAt(i) || 0) ^ (expected.charCodeAt(i) || 0);
  }
  return diff === 0;
}

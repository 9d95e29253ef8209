import type { ToolCall } from "./types";

/** Canonical text of a call (argument order ignored), for equality and duplicate checks. */
export function callKey(call: ToolCall): string {
  const keys = Object.keys(call.arguments).sort();
  let key = call.tool + "(";
  for (const k of keys) key += `${k}=${String(call.arguments[k])};`;
  return key + ")";
}

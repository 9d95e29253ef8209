import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PolicyCheckpoint } from "@/lib/engine/types";

/**
 * Checkpoints an external trainer reports by URI. The worker reads the ones it can (file://,
 * http(s)://) as JSON policy checkpoints for the builtin agent; anything else (s3://, hf://) is
 * for an agent that loads the model itself, which then receives only the URI.
 */

export const ENDPOINT_CHECKPOINT_KIND = "openai-endpoint";

export function isReadableCheckpointUri(uri: string): boolean {
  return /^(file|https?):\/\//i.test(uri);
}

export async function readCheckpointUri(uri: string, version: number): Promise<PolicyCheckpoint> {
  let text: string;
  try {
    if (uri.startsWith("file://")) {
      text = await fs.readFile(fileURLToPath(uri), "utf8");
    } else if (/^https?:\/\//i.test(uri)) {
      const response = await fetch(uri, { signal: AbortSignal.timeout(30_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      text = await response.text();
    } else {
      return { kind: "uri", version, payload: { uri } };
    }
  } catch (error) {
    throw new Error(
      `cannot read checkpoint ${uri}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`checkpoint ${uri} is not JSON`);
  }
  const candidate = parsed as Partial<PolicyCheckpoint> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.kind !== "string" ||
    typeof candidate.payload !== "object" ||
    candidate.payload === null
  ) {
    throw new Error(`checkpoint ${uri} is not a policy checkpoint ({ kind, payload })`);
  }
  // The run's version numbering wins over whatever the trainer wrote.
  return { kind: candidate.kind, payload: candidate.payload, version };
}

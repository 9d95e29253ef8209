import { z } from "zod";

/**
 * The portable task format: one JSON object per line (JSONL), or one CSV record per row. It is
 * exactly what `npm run export -- --format tasks` writes, so export → import round-trips.
 *
 *   {"instruction": "...", "skill": "lookup", "level": 2, "spec": {...},
 *    "reference": [{"tool": "find_contacts", "arguments": {"name": "Ada"}}],
 *    "difficulty": 0.35, "metadata": {...}}
 *
 * `spec` is the environment's own description of the task (world, checker, reference);
 * `reference` (optional) replaces the reference solution inside it; `difficulty` and `metadata`
 * are informative only: the environment recomputes difficulty from the spec.
 *
 * CSV: a header row naming the columns instruction, skill, level, spec and optionally reference,
 * difficulty; spec and reference cells hold JSON text (quoted as RFC 4180 CSV: "" for a quote).
 */
export const PortableTaskSchema = z.strictObject({
  instruction: z.string().trim().min(1, "must not be empty").max(4000),
  skill: z.string().min(1, "must not be empty"),
  level: z.number().int("must be a whole number"),
  spec: z.record(z.string(), z.json()),
  reference: z
    .array(z.object({ tool: z.string().min(1), arguments: z.record(z.string(), z.json()) }))
    .optional(),
  difficulty: z.number().min(0).max(1).optional(),
  metadata: z.record(z.string(), z.json()).optional(),
});

export type PortableTaskLine = z.output<typeof PortableTaskSchema>;

export const IMPORT_FORMATS = ["jsonl", "csv"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const CSV_COLUMNS = ["instruction", "skill", "level", "spec", "reference", "difficulty"];
export const REQUIRED_CSV_COLUMNS = ["instruction", "skill", "level", "spec"];

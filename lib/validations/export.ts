import { z } from "zod";

export const EXPORT_FORMATS = ["jsonl", "parquet", "tasks"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What to export; shared by the route's query string and the CLI's flags. */
export const ExportQuerySchema = z.object({
  generation: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  format: z.enum(EXPORT_FORMATS).default("jsonl"),
  purpose: z.enum(["train", "eval", "all"]).default("train"),
  status: z.enum(["approved", "all"]).default("approved"),
});

export type ExportQuery = z.output<typeof ExportQuerySchema>;

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import { importTasks, type ImportSummary } from "@/lib/db/mutations/import-tasks";
import { getPool } from "@/lib/db/pool";
import { IMPORT_FORMATS } from "@/lib/import/format";

/** Seed-task files are small; a bigger one belongs to `npm run import`. */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const ImportSchema = z.object({
  slug: z.string().min(1),
  format: z.enum(["auto", ...IMPORT_FORMATS]).default("auto"),
  file: z
    .instanceof(File, { message: "Choose a file" })
    .refine((file) => file.size > 0 || file.name !== "", "Choose a file")
    .refine(
      (file) => file.size <= MAX_UPLOAD_BYTES,
      "At most 20 MB; use `npm run import` for larger files",
    ),
  isDryRun: z.preprocess((value) => value === "on" || value === true, z.boolean()),
});

export const importTasksAction = defineAction({
  name: "tasks.import",
  schema: ImportSchema,
  handler: async (input, ctx): Promise<{ summary: ImportSummary }> => {
    const format =
      input.format === "auto"
        ? input.file.name.toLowerCase().endsWith(".csv")
          ? "csv"
          : "jsonl"
        : input.format;
    const summary = await importTasks({
      pool: getPool(),
      slug: input.slug,
      source: [new Uint8Array(await input.file.arrayBuffer())],
      format,
      isDryRun: input.isDryRun,
      actor: ctx.actor,
    });
    if (summary.imported > 0 && !summary.isDryRun) revalidatePath("/runs/[slug]", "page");
    return { summary };
  },
});

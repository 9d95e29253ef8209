"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import { updatePromptTemplate } from "@/lib/db/mutations/run-config";
import { getPool } from "@/lib/db/pool";
import { getRunBySlug } from "@/lib/db/queries/runs";
import { AppError } from "@/lib/errors";
import { PromptTemplateSchema } from "@/lib/validations/run-config";

const PromptTemplateInput = z.object({
  slug: z.string().min(1),
  promptTemplate: PromptTemplateSchema,
});

export const updatePromptTemplateAction = defineAction({
  name: "run.updatePromptTemplate",
  schema: PromptTemplateInput,
  handler: async (input, ctx): Promise<{ promptTemplate: string }> => {
    const run = await getRunBySlug({ slug: input.slug });
    if (!run) throw new AppError("NOT_FOUND", "That run does not exist.");
    const result = await updatePromptTemplate({
      runId: run.id,
      template: input.promptTemplate,
      actor: ctx.actor,
      db: getPool(),
    });
    revalidatePath(`/runs/${run.slug}/config`);
    return result;
  },
});

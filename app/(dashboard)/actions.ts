"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import {
  archiveRun,
  cancelRound,
  closeReview,
  createRun,
  launchRound,
  retryRound,
  type MutationContext,
} from "@/lib/db/mutations/rounds";
import { reviewTasks } from "@/lib/db/mutations/reviews";
import { getPool } from "@/lib/db/pool";
import { getQueueClient } from "@/lib/jobs/client";
import { NewRunSchema, newRunFieldOf, newRunInputOf } from "@/lib/validations/new-run-form";
import { TaskFilterSchema } from "@/lib/validations/task-filter";

async function mutationContext(actor: string | null): Promise<MutationContext> {
  return { pool: getPool(), boss: await getQueueClient(), actor };
}

function revalidateRuns() {
  revalidatePath("/");
  revalidatePath("/runs/[slug]", "page");
}

/** The New run form's fields, shaped as the run config; everything not on the form takes its default. */
export const createRunAction = defineAction({
  name: "run.create",
  schema: NewRunSchema,
  prepare: newRunInputOf,
  fieldOf: newRunFieldOf,
  handler: async ({ name, config }, { actor }) => {
    const run = await createRun(await mutationContext(actor), { name, config });
    revalidatePath("/");
    redirect(`/runs/${run.slug}`);
  },
});

const RunTargetSchema = z.object({ runId: z.coerce.number().int().positive() });
const runScope = ({ runId }: z.output<typeof RunTargetSchema>) => ({ runId });

export const launchRoundAction = defineAction({
  name: "round.launch",
  schema: RunTargetSchema,
  scope: runScope,
  handler: async ({ runId }, { actor }) => {
    const { index } = await launchRound(await mutationContext(actor), { runId });
    revalidateRuns();
    return { message: `Round started: generation ${index} is queued.` };
  },
});

export const cancelRoundAction = defineAction({
  name: "round.cancel",
  schema: RunTargetSchema,
  scope: runScope,
  handler: async ({ runId }, { actor }) => {
    const { index } = await cancelRound(await mutationContext(actor), { runId });
    revalidateRuns();
    return { message: `Generation ${index} was cancelled; launching a round resumes it.` };
  },
});

export const retryRoundAction = defineAction({
  name: "round.retry",
  schema: RunTargetSchema,
  scope: runScope,
  handler: async ({ runId }, { actor }) => {
    const { index } = await retryRound(await mutationContext(actor), { runId });
    revalidateRuns();
    return { message: `Generation ${index} resumes from the stage that failed.` };
  },
});

export const closeReviewAction = defineAction({
  name: "review.close",
  schema: RunTargetSchema,
  scope: runScope,
  handler: async ({ runId }, { actor }) => {
    const { index } = await closeReview(await mutationContext(actor), { runId });
    revalidateRuns();
    return { message: `Review of generation ${index} closed; its next pool is being built.` };
  },
});

export const archiveRunAction = defineAction({
  name: "run.archive",
  schema: RunTargetSchema,
  scope: runScope,
  handler: async ({ runId }, { actor }) => {
    await archiveRun(await mutationContext(actor), { runId });
    revalidateRuns();
    return { message: "Run archived: it no longer appears in the runs list." };
  },
});

const ReviewSchema = z
  .object({
    runId: z.coerce.number().int().positive(),
    generationIndex: z.coerce.number().int().min(0),
    decision: z.enum(["APPROVED", "REJECTED", "PENDING"]),
    note: z.string().trim().max(2000).optional(),
    /** One task, a selection (comma-separated from a form), or… */
    taskIds: z
      .preprocess(
        (value) =>
          typeof value === "string" ? value.split(",").filter(Boolean).map(Number) : value,
        z.array(z.number().int().positive()).min(1).max(10_000),
      )
      .optional(),
    /** …everything matching the generation table's filter. */
    filter: TaskFilterSchema.optional(),
  })
  .refine((input) => (input.taskIds === undefined) !== (input.filter === undefined), {
    message: "Choose tasks or a filter, not both or neither",
    path: ["taskIds"],
  });

/** Approve, reject (with a note) or undo — one task, a selection, or everything matching a filter. */
export const reviewTasksAction = defineAction({
  name: "review.decide",
  schema: ReviewSchema,
  scope: ({ runId }) => ({ runId }),
  handler: async (input, { actor }) => {
    const result = await reviewTasks(getPool(), {
      runId: input.runId,
      generationIndex: input.generationIndex,
      selection: input.taskIds ? { taskIds: input.taskIds } : { filter: input.filter! },
      decision: input.decision,
      note: input.note ?? null,
      // Until accounts exist (a later issue) decisions are recorded as made by "anonymous".
      reviewer: actor ?? "anonymous",
    });
    revalidateRuns();
    const verb = { APPROVED: "approved", REJECTED: "rejected", PENDING: "reset to pending" }[
      input.decision
    ];
    const skipped = result.skippedInvalid
      ? ` (${result.skippedInvalid} invalid task${result.skippedInvalid === 1 ? "" : "s"} skipped)`
      : "";
    return {
      message: `${result.updated} task${result.updated === 1 ? "" : "s"} ${verb}${skipped}.`,
      ...result,
    };
  },
});

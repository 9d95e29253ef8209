import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import { AppError } from "@/lib/errors";
import { parseRunConfig, PromptTemplateSchema } from "@/lib/validations/run-config";
import { withTransaction } from "../transaction";

export type UpdatePromptTemplateOptions = {
  runId: number;
  template: string;
  actor?: string | null;
  db?: Pool;
};

/**
 * Replaces the LLM synthesizer's prompt template in a run's stored config. Rounds read the config
 * when their stages run, so rounds launched afterwards (and a queued round that has not reached
 * synthesis yet) use the new template; finished rounds keep the tasks they made. The audit event
 * records the change by length, not the text.
 */
export async function updatePromptTemplate(
  options: UpdatePromptTemplateOptions,
): Promise<{ promptTemplate: string }> {
  const parsedTemplate = PromptTemplateSchema.safeParse(options.template);
  if (!parsedTemplate.success) {
    throw new AppError("INVALID_INPUT", parsedTemplate.error.issues[0]!.message);
  }
  const template = parsedTemplate.data;
  return withTransaction(options.db ?? getPool(), async (client) => {
    const { rows } = await client.query<{ config: Record<string, unknown> | null }>(
      `SELECT config FROM "Run" WHERE id = $1 FOR UPDATE`,
      [options.runId],
    );
    if (rows.length === 0) throw new AppError("NOT_FOUND", "That run does not exist.");
    const stored = rows[0]!.config ?? {};
    const synthesizer = stored.synthesizer;
    if (synthesizer === null || typeof synthesizer !== "object" || Array.isArray(synthesizer)) {
      throw new AppError(
        "CONFLICT",
        "This run uses the builtin synthesizer, which has no prompt template.",
      );
    }
    const before = (synthesizer as { promptTemplate?: unknown }).promptTemplate;
    const next = { ...stored, synthesizer: { ...synthesizer, promptTemplate: template } };
    // The whole config must still parse: nothing is stored that a round could not run with.
    parseRunConfig(next);
    await client.query(`UPDATE "Run" SET config = $2, "updatedAt" = now() WHERE id = $1`, [
      options.runId,
      JSON.stringify(next),
    ]);
    await client.query(
      `INSERT INTO "AuditEvent" ("runId", action, "targetType", "targetId", details)
       VALUES ($1, 'run.prompt_template.update', 'run', $2, $3)`,
      [
        options.runId,
        String(options.runId),
        JSON.stringify({
          actor: options.actor ?? null,
          previousLength: typeof before === "string" ? before.length : null,
          length: template.length,
        }),
      ],
    );
    return { promptTemplate: template };
  });
}

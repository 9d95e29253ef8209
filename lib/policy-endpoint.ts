import "server-only";
import type { Pool } from "pg";
import { getPool } from "@/lib/db/pool";
import {
  findPolicyTasks,
  listPolicyModels,
  loadPolicyForModel,
} from "@/lib/db/queries/policy-models";
import { ChatRequestError, createPolicyChatHandler } from "@/lib/engine/agents/openai/chat-server";
import { createToolWorld } from "@/lib/engine/environments/toolworld";

/**
 * The dashboard's OpenAI-compatible endpoint (/api/openai/v1): any run's stored checkpoints
 * played by the builtin policy over that run's stored tasks. Point an OpenAI-compatible agent at
 * `<dashboard>/api/openai/v1` with model `<run slug>` or `<run slug>@v<version>`.
 */
export function createRunPolicyHandler(
  options: { db?: Pick<Pool, "query">; apiKey?: string } = {},
) {
  const db = () => options.db ?? getPool();
  return createPolicyChatHandler({
    environment: createToolWorld(),
    apiKey: options.apiKey,
    listModels: () => listPolicyModels(db()),
    resolvePolicy: (model) => loadPolicyForModel(model, db()),
    resolveTask: async (query) => {
      const tasks = await findPolicyTasks(query, db());
      if (tasks.length > 1) {
        throw new ChatRequestError(
          400,
          "ambiguous_task",
          "several tasks of this run share the instruction; send metadata.task_id",
        );
      }
      return tasks[0] ?? null;
    },
    now: () => Date.now() / 1000,
  });
}

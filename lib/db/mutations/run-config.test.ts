import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { updatePromptTemplate } from "@/lib/db/mutations/run-config";
import { AppError } from "@/lib/errors";
import { DEFAULT_PROMPT_TEMPLATE } from "@/lib/engine/synthesizers/llm-prompt";
import { parseRunConfig } from "@/lib/validations/run-config";
import { testDatabaseUrl } from "@/tests/support/db";

vi.mock("server-only", () => ({}));

let pool: Pool;
beforeAll(() => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 2 });
});
afterAll(async () => {
  await pool.end();
});

const LLM = { kind: "llm", baseUrl: "http://localhost:8000/v1", model: "qwen", connection: "vllm" };

async function createRun(config: Record<string, unknown>): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, 'Prompt run', 'COEVOLVE', 'toolworld', 'builtin', 1, $2, now()) RETURNING id`,
    [`prompt-${randomUUID()}`, JSON.stringify(config)],
  );
  return rows[0]!.id;
}

async function configOf(runId: number) {
  const { rows } = await pool.query<{ config: Record<string, unknown> }>(
    `SELECT config FROM "Run" WHERE id = $1`,
    [runId],
  );
  return rows[0]!.config;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("updatePromptTemplate", () => {
  it("stores the new template in the run's config and audits the change", async () => {
    const runId = await createRun({ seed: 4, synthesizer: LLM });
    const template = `  ${DEFAULT_PROMPT_TEMPLATE}\nAlways use the calendar.  `;
    const result = await updatePromptTemplate({ runId, template, actor: "ana", db: pool });
    expect(result.promptTemplate).toBe(template.trim());
    const stored = await configOf(runId);
    expect(stored).toEqual({ seed: 4, synthesizer: { ...LLM, promptTemplate: template.trim() } });
    expect(parseRunConfig(stored).synthesizer).toMatchObject({ promptTemplate: template.trim() });
    const { rows } = await pool.query(
      `SELECT action, "targetType", details FROM "AuditEvent" WHERE "runId" = $1`,
      [runId],
    );
    expect(rows).toEqual([
      {
        action: "run.prompt_template.update",
        targetType: "run",
        details: { actor: "ana", previousLength: null, length: template.trim().length },
      },
    ]);
  });

  it("refuses unknown placeholders, builtin synthesizers and missing runs, changing nothing", async () => {
    const runId = await createRun({ synthesizer: { ...LLM, promptTemplate: "{{tools}}" } });
    const unknown = await rejection(
      updatePromptTemplate({ runId, template: "{{tools}} {{tool_docs}}", db: pool }),
    );
    expect(unknown.code).toBe("INVALID_INPUT");
    expect(unknown.message).toMatch(/^unknown placeholder \{\{tool_docs\}\} \(known: tools, /);
    const empty = await rejection(updatePromptTemplate({ runId, template: " \n ", db: pool }));
    expect(empty.message).toBe("the prompt template cannot be empty");
    expect(await configOf(runId)).toEqual({ synthesizer: { ...LLM, promptTemplate: "{{tools}}" } });

    const builtin = await createRun({ synthesizer: "builtin" });
    const conflict = await rejection(
      updatePromptTemplate({ runId: builtin, template: "{{tools}}", db: pool }),
    );
    expect(conflict.code).toBe("CONFLICT");
    expect(await configOf(builtin)).toEqual({ synthesizer: "builtin" });

    const missing = await rejection(
      updatePromptTemplate({ runId: 2_000_000_000, template: "{{tools}}", db: pool }),
    );
    expect(missing.code).toBe("NOT_FOUND");
    const { rows } = await pool.query(`SELECT 1 FROM "AuditEvent" WHERE "runId" = ANY($1)`, [
      [runId, builtin],
    ]);
    expect(rows).toEqual([]);
  });
});

import { randomUUID } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOpenAiAgent } from "@/lib/engine/agents/openai/agent";
import { serveFetchHandler, type ServedHandler } from "@/lib/engine/agents/openai/node-http";
import { createBuiltinDeps } from "@/lib/engine/engine";
import { rolloutBatch, type RolloutBatchInput } from "@/lib/engine/rollout";
import { createBasePolicy, generateSeedPool } from "@/lib/engine/setup";
import type { Task } from "@/lib/engine/types";
import { insertTasks, saveCheckpoint } from "@/lib/jobs/engine-rows";
import { parseRunConfig } from "@/lib/validations/run-config";
import { testDatabaseUrl } from "@/tests/support/db";
import { createRunPolicyHandler } from "./policy-endpoint";

vi.mock("server-only", () => ({}));

const KEY = "dashboard-policy-key";
const config = parseRunConfig({ seedPoolSize: 14, heldoutPerCell: 1, seed: 2 });
const deps = createBuiltinDeps(config);
const policy = createBasePolicy(deps.environment, config);

let pool: Pool;
let served: ServedHandler;
let slug: string;
let seeds: Task[];

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  slug = `policy-${randomUUID()}`;
  const {
    rows: [run],
  } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, $1, 'COEVOLVE', 'toolworld', 'builtin', 2, '{}', now()) RETURNING id`,
    [slug],
  );
  const {
    rows: [generation],
  } = await pool.query<{ id: number }>(
    `INSERT INTO "Generation" ("runId", index) VALUES ($1, 0) RETURNING id`,
    [run!.id],
  );
  seeds = await generateSeedPool(deps.environment, config);
  await insertTasks(pool, { runId: run!.id, generationId: generation!.id, tasks: seeds });
  await saveCheckpoint(pool, { runId: run!.id, generationId: generation!.id, checkpoint: policy });
  served = await serveFetchHandler(createRunPolicyHandler({ db: pool, apiKey: KEY }));
});

afterAll(async () => {
  await served.close();
  await pool.end();
});

describe("the dashboard's OpenAI-compatible policy endpoint", () => {
  it("plays a stored run's checkpoint over its stored tasks exactly like the builtin agent", async () => {
    const input: RolloutBatchInput = {
      runSeed: 9,
      generation: 0,
      purpose: "train",
      policy,
      temperature: 1,
      items: seeds.slice(0, 3).map((task) => ({ task, sampleIndices: [0, 1] })),
    };
    const expected = await rolloutBatch(deps, input);
    for (const [model, sendTaskId] of [
      [slug, true],
      [`${slug}@v0`, false],
    ] as const) {
      const agent = createOpenAiAgent({
        baseUrl: `${served.url}/api/openai/v1`,
        model,
        apiKey: KEY,
        sendTaskId,
        concurrency: 3,
      });
      const actual = await rolloutBatch({ environment: deps.environment, agent }, input);
      expect(actual.map((t) => t.error)).toEqual(actual.map(() => undefined));
      expect(actual.map((t) => [t.success, t.reward, t.steps.map((s) => s.arguments)])).toEqual(
        expected.map((t) => [t.success, t.reward, t.steps.map((s) => s.arguments)]),
      );
    }
  });

  it("lists the run's models, refuses a wrong key and names unknown versions", async () => {
    const get = (path: string, key = KEY) =>
      fetch(`${served.url}/api/openai/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    const models = (await (await get("/models")).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(expect.arrayContaining([slug, `${slug}@v0`]));

    const refused = await get("/models", "wrong");
    expect(refused.status).toBe(401);

    const agent = createOpenAiAgent({
      baseUrl: `${served.url}/api/openai/v1`,
      model: `${slug}@v7`,
      apiKey: KEY,
      retries: 0,
    });
    const [failed] = await rolloutBatch(
      { environment: deps.environment, agent },
      {
        runSeed: 1,
        generation: 0,
        purpose: "eval",
        policy,
        temperature: 0,
        items: [{ task: seeds[0]!, sampleIndices: [0] }],
      },
    );
    expect(failed!.endReason).toBe("agent_error");
    expect(failed!.error).toMatch(new RegExp(`answered HTTP 404: no model ${slug}@v7$`));
  });
});

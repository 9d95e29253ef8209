import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunConfigInput } from "../../../validations/run-config";
import { parseRunConfig } from "../../../validations/run-config";
import { createBuiltinDeps, type EngineDeps } from "../../engine";
import type { Environment } from "../../interfaces";
import { rolloutBatch } from "../../rollout";
import { runInMemory } from "../../run";
import { createBasePolicy, generateSeedPool } from "../../setup";
import type { PolicyCheckpoint, Task, Trajectory } from "../../types";
import { createOpenAiAgent } from "./agent";
import { createPolicyChatHandler, createTaskDirectory } from "./chat-server";
import { serveFetchHandler, type ServedHandler } from "./node-http";

const SMALL: RunConfigInput = {
  rounds: 2,
  tasksPerRound: 8,
  groupSize: 4,
  heldoutPerCell: 1,
  seedPoolSize: 14,
  synthesisBudget: 8,
  seed: 3,
};

const API_KEY = "sk-test-0123456789abcdef";

/**
 * The policy server knows checkpoints by model name and tasks by id, the way a user's model
 * server knows its weights: the harness registers the checkpoint a rollout asks for and every
 * task an episode is opened on (as a trainer reporting a checkpoint and a task export would).
 */
function createHarness() {
  const tasks = createTaskDirectory();
  const policies = new Map<string, PolicyCheckpoint>();
  const modelFor = (policy: PolicyCheckpoint) => {
    const name = `coevolve-builtin-v${policy.version}`;
    policies.set(name, policy);
    return name;
  };
  const world = createBuiltinDeps(parseRunConfig(SMALL)).environment;
  const environment: Environment = {
    ...world,
    openEpisode: (task: Task) => {
      tasks.add([task]);
      return world.openEpisode(task);
    },
  };
  const handler = createPolicyChatHandler({
    environment: world,
    resolvePolicy: (model) => policies.get(model) ?? null,
    listModels: () => [...policies.keys()],
    resolveTask: (query) => tasks.resolve(query),
  });
  return { tasks, policies, modelFor, environment, handler };
}

/** What both agents must agree on; probabilities and entropies compared separately. */
function shapeOf(t: Trajectory) {
  return {
    id: t.id,
    reward: t.reward,
    success: t.success,
    sideEffect: t.sideEffect,
    answer: t.answer,
    endReason: t.endReason,
    failure: t.failure,
    steps: t.steps.map((s) => ({
      index: s.index,
      tool: s.tool,
      arguments: s.arguments,
      observation: s.observation,
      isError: s.isError,
    })),
  };
}

describe("OpenAI-compatible agent against the builtin policy over real HTTP", () => {
  let harness: ReturnType<typeof createHarness>;
  let served: ServedHandler;
  let authorizations: string[];

  beforeAll(async () => {
    harness = createHarness();
    authorizations = [];
    served = await serveFetchHandler(async (request) => {
      authorizations.push(request.headers.get("authorization") ?? "");
      return harness.handler(request);
    });
  });
  afterAll(async () => {
    await served.close();
  });

  it("reproduces the builtin agent's rollout batch exactly from the same seeds", async () => {
    const config = parseRunConfig(SMALL);
    const builtin = createBuiltinDeps(config);
    const seeds = await generateSeedPool(builtin.environment, config);
    const policy = createBasePolicy(builtin.environment, config);
    const agent = createOpenAiAgent({
      baseUrl: `${served.url}/v1`,
      model: harness.modelFor,
      apiKey: API_KEY,
      sendTaskId: true,
      requestLogprobs: true,
      topLogprobs: 1000,
      concurrency: 4,
      timeoutMs: 10_000,
    });
    const input = {
      runSeed: 11,
      generation: 1,
      purpose: "train" as const,
      policy,
      temperature: 1,
      items: seeds.slice(0, 6).map((task) => ({ task, sampleIndices: [0, 1, 2] })),
    };
    const started = performance.now();
    const expected = await rolloutBatch(builtin, input);
    const builtinMs = performance.now() - started;
    const before = performance.now();
    const actual = await rolloutBatch({ environment: harness.environment, agent }, input);
    const httpMs = performance.now() - before;
    console.info(
      `[openai agent] ${actual.length} rollouts: builtin ${(actual.length / (builtinMs / 1000)).toFixed(0)}/s, ` +
        `over HTTP ${(actual.length / (httpMs / 1000)).toFixed(1)}/s`,
    );

    expect(actual).toHaveLength(18);
    expect(actual.map(shapeOf)).toEqual(expected.map(shapeOf));
    expect(actual.some((t) => t.success)).toBe(true);
    for (const [i, t] of actual.entries()) {
      const reference = expected[i]!;
      expect(t.error).toBeUndefined();
      expect(t.usage!.completionTokens).toBe(t.steps.length);
      expect(t.usage!.promptTokens).toBeGreaterThan(0);
      expect(t.meanEntropy).toBeCloseTo(reference.meanEntropy, 9);
      for (const [j, step] of t.steps.entries()) {
        expect(step.candidateCount).toBeNull();
        expect(step.probability).toBeCloseTo(reference.steps[j]!.probability!, 12);
        expect(step.entropy).toBeCloseTo(reference.steps[j]!.entropy!, 9);
      }
    }
    expect(JSON.stringify(actual)).not.toContain(API_KEY);
    expect(authorizations.every((a) => a === `Bearer ${API_KEY}`)).toBe(true);
  });

  it("without task ids or logprobs, matches by instruction and leaves probabilities null", async () => {
    const config = parseRunConfig(SMALL);
    const builtin = createBuiltinDeps(config);
    const seeds = await generateSeedPool(builtin.environment, config);
    const policy = createBasePolicy(builtin.environment, config);
    harness.modelFor(policy);
    const agent = createOpenAiAgent({
      baseUrl: `${served.url}/v1/`,
      model: `coevolve-builtin-v${policy.version}`,
      concurrency: 2,
    });
    const input = {
      runSeed: 4,
      generation: 0,
      purpose: "eval" as const,
      policy,
      temperature: 0,
      items: seeds.slice(0, 4).map((task) => ({ task, sampleIndices: [0] })),
    };
    const expected = await rolloutBatch(builtin, input);
    const actual = await rolloutBatch({ environment: harness.environment, agent }, input);
    expect(actual.map(shapeOf)).toEqual(expected.map(shapeOf));
    expect(actual.flatMap((t) => t.steps).every((s) => s.probability === null)).toBe(true);
    expect(actual.every((t) => t.meanEntropy === 0)).toBe(true);
  });

  it("runs whole rounds through HTTP with the same held-out results as the builtin agent", async () => {
    const builtinRun = await runInMemory(SMALL);
    const httpDeps: EngineDeps = {
      ...createBuiltinDeps(parseRunConfig(SMALL)),
      environment: harness.environment,
      agent: createOpenAiAgent({
        baseUrl: `${served.url}/v1`,
        model: harness.modelFor,
        apiKey: API_KEY,
        sendTaskId: true,
        requestLogprobs: true,
        topLogprobs: 1000,
        concurrency: 4,
      }),
    };
    const rounds: number[] = [];
    const httpRun = await runInMemory(SMALL, {
      deps: httpDeps,
      onRound: (report) => rounds.push(report.generation),
    });
    expect(rounds).toHaveLength(2);
    expect(httpRun.result.trainRollouts).toBe(2 * 8 * 4);
    expect(httpRun.result.heldout.map((h) => h.success)).toEqual(
      builtinRun.result.heldout.map((h) => h.success),
    );
    expect(httpRun.result.heldout.at(-1)!.success).toBeGreaterThan(0);
    expect(httpRun.state.tasks.map((t) => t.id)).toEqual(builtinRun.state.tasks.map((t) => t.id));
    // Training consumed the HTTP trajectories (probabilities via logprobs) and landed on the same
    // checkpoint the builtin agent's trajectories produce.
    expect(httpRun.state.policy).toEqual(builtinRun.state.policy);
    expect(JSON.stringify(httpRun.state)).not.toContain(API_KEY);
  });

  it("lists the served models and refuses what it cannot answer with OpenAI-style errors", async () => {
    const models = (await (await fetch(`${served.url}/v1/models`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(models.data.map((m) => m.id)).toContain("coevolve-builtin-v0");

    const post = (body: unknown) =>
      fetch(`${served.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    const unknownModel = await post({
      model: "nope",
      messages: [{ role: "user", content: "x" }],
    });
    expect(unknownModel.status).toBe(404);
    expect(((await unknownModel.json()) as { error: { code: string } }).error.code).toBe(
      "model_not_found",
    );
    const unknownTask = await post({
      model: "coevolve-builtin-v0",
      messages: [{ role: "user", content: "do something nobody asked for" }],
    });
    expect(unknownTask.status).toBe(404);
    expect(((await unknownTask.json()) as { error: { code: string } }).error.code).toBe(
      "task_not_found",
    );
    expect((await post("{not json")).status).toBe(400);
    const streaming = await post({
      model: "coevolve-builtin-v0",
      stream: true,
      messages: [{ role: "user", content: "x" }],
    });
    expect(streaming.status).toBe(400);
    expect((await fetch(`${served.url}/v1/embeddings`)).status).toBe(404);
  });
});

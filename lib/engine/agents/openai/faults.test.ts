import { afterEach, describe, expect, it } from "vitest";
import { parseRunConfig, type RunConfigInput } from "../../../validations/run-config";
import { createBuiltinDeps } from "../../engine";
import type { Agent, EpisodeResult } from "../../interfaces";
import { rolloutBatch, type RolloutBatchInput } from "../../rollout";
import { runInMemory } from "../../run";
import { createBasePolicy, generateSeedPool } from "../../setup";
import {
  startFaultChatServer,
  type Fault,
  type FaultChatServer,
} from "../../testing/fault-chat-server";
import type { Trajectory } from "../../types";
import { createOpenAiAgent, type OpenAiAgentOptions } from "./agent";

const API_KEY = "sk-live-SECRET-do-not-leak-42";
const config = parseRunConfig({ seedPoolSize: 14, heldoutPerCell: 1 });
const builtin = createBuiltinDeps(config);
const seedsPromise = generateSeedPool(builtin.environment, config);
const policy = createBasePolicy(builtin.environment, config);

const FINISH: Fault = { kind: "call", name: "finish", arguments: "{}" };

let server: FaultChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(plan: (n: number) => Fault) {
  server = await startFaultChatServer(plan);
  return server;
}

function agentFor(target: FaultChatServer, extra: Partial<OpenAiAgentOptions> = {}) {
  return createOpenAiAgent({
    baseUrl: target.baseUrl,
    model: "fault",
    apiKey: API_KEY,
    concurrency: 1,
    timeoutMs: 2_000,
    retries: 0,
    sleep: async () => {},
    ...extra,
  });
}

async function rollout(agent: Agent, episodes = 1): Promise<Trajectory[]> {
  const seeds = await seedsPromise;
  const input: RolloutBatchInput = {
    runSeed: 1,
    generation: 0,
    purpose: "train",
    policy,
    temperature: 1,
    items: seeds.slice(0, episodes).map((task) => ({ task, sampleIndices: [0] })),
  };
  const trajectories = await rolloutBatch({ environment: builtin.environment, agent }, input);
  // Whatever went wrong, the key must never surface in what the engine keeps.
  expect(JSON.stringify(trajectories)).not.toContain(API_KEY);
  return trajectories;
}

describe("OpenAI agent faults: each marks only its rollout failed, with the reason", () => {
  it("a stalling endpoint times out per attempt and the next rollout still runs", async () => {
    // Episode 1 stalls on both attempts; episode 2 finishes.
    const target = await start((n) => (n < 2 ? { kind: "stall" } : FINISH));
    const [stalled, next] = await rollout(agentFor(target, { timeoutMs: 150, retries: 1 }), 2);
    expect(stalled!.endReason).toBe("agent_error");
    expect(stalled!.error).toMatch(/timed out after 150 ms \(gave up after 2 attempts\)$/);
    expect(stalled!.success).toBe(false);
    expect(stalled!.steps).toEqual([]);
    expect(next!.endReason).toBe("finish");
    expect(next!.error).toBeUndefined();
    expect(next!.steps.map((s) => s.tool)).toEqual(["finish"]);
    expect(target.requests).toBe(3);
  });

  it("5xx answers are retried with capped exponential backoff and jitter, then fail", async () => {
    const target = await start(() => ({ kind: "status", status: 500 }));
    const waits: number[] = [];
    const [failed] = await rollout(
      agentFor(target, {
        retries: 3,
        backoff: { baseMs: 100, maxMs: 250 },
        random: () => 0.5,
        sleep: async (ms) => void waits.push(ms),
      }),
    );
    expect(target.requests).toBe(4);
    // ceilings 100, 200, 250 (capped) × jitter factor 0.75
    expect(waits).toEqual([75, 150, 188]);
    expect(failed!.endReason).toBe("agent_error");
    expect(failed!.error).toContain("answered HTTP 500: boom (you sent Bearer [redacted])");
    expect(failed!.error).toContain("gave up after 4 attempts");
    expect(target.authorizations.every((a) => a === `Bearer ${API_KEY}`)).toBe(true);
    expect(JSON.stringify(target.bodies)).not.toContain(API_KEY);
  });

  it("the default jitter is seeded by the episode: same waits on a rerun, within [ceiling/2, ceiling)", async () => {
    const runWaits = async () => {
      const target = await start(() => ({ kind: "status", status: 503 }));
      const waits: number[] = [];
      await rollout(
        agentFor(target, {
          retries: 3,
          backoff: { baseMs: 1000, maxMs: 100_000 },
          sleep: async (ms) => void waits.push(ms),
        }),
      );
      await target.close();
      server = null;
      return waits;
    };
    const first = await runWaits();
    expect(await runWaits()).toEqual(first);
    expect(first).toHaveLength(3);
    first.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(1000 * 2 ** i);
    });
  });

  it("a 429 is retried after its Retry-After and the rollout then succeeds; a 400 is not retried", async () => {
    const busy = await start((n) =>
      n === 0 ? { kind: "status", status: 429, headers: { "retry-after": "2" } } : FINISH,
    );
    const waits: number[] = [];
    const [recovered] = await rollout(
      agentFor(busy, { retries: 2, sleep: async (ms) => void waits.push(ms) }),
    );
    expect(busy.requests).toBe(2);
    expect(waits).toEqual([2000]);
    expect(recovered!.endReason).toBe("finish");
    await busy.close();

    const refused = await start(() => ({
      kind: "status",
      status: 400,
      body: '{"error":{"message":"tools are not supported by this model"}}',
    }));
    const [failed] = await rollout(agentFor(refused, { retries: 3 }));
    expect(refused.requests).toBe(1);
    expect(failed!.error).toMatch(/answered HTTP 400: tools are not supported by this model$/);
  });

  it("an unreachable endpoint is a network error, retried, then a failed rollout", async () => {
    const target = await start(() => FINISH);
    const baseUrl = target.baseUrl;
    await target.close();
    server = null;
    const waits: number[] = [];
    const agent = createOpenAiAgent({
      baseUrl,
      model: "fault",
      apiKey: API_KEY,
      retries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    const [failed] = await rollout(agent);
    expect(waits).toHaveLength(2);
    expect(failed!.endReason).toBe("agent_error");
    expect(failed!.error).toMatch(
      /unreachable: fetch failed \(ECONNREFUSED\) \(gave up after 3 attempts\)/,
    );
  });

  it("refuses a base URL that is not http(s) when the agent is created", () => {
    expect(() => createOpenAiAgent({ baseUrl: "localhost:8000/v1", model: "m" })).toThrow(
      "the OpenAI agent's baseUrl must be http(s), not localhost:",
    );
    expect(() => createOpenAiAgent({ baseUrl: "not a url", model: "m" })).toThrow(
      "the OpenAI agent's baseUrl is not a URL",
    );
  });

  it("malformed JSON fails the rollout without retrying", async () => {
    const target = await start(() => ({ kind: "malformed-json" }));
    const [failed] = await rollout(agentFor(target, { retries: 3 }));
    expect(target.requests).toBe(1);
    expect(failed!.error).toBe('malformed response: body is not JSON: {"choices": [{"message":');
  });

  it.each([
    {
      fault: { kind: "call", name: "launch_rockets", arguments: "{}" } as Fault,
      reason: 'malformed tool call: unknown tool "launch_rockets"',
    },
    {
      fault: { kind: "call", name: "find_contacts", arguments: '{"name": "Mi' } as Fault,
      reason: 'malformed tool call: arguments of find_contacts are not valid JSON: {"name": "Mi',
    },
    {
      fault: { kind: "call", name: "find_contacts", arguments: "[1, 2]" } as Fault,
      reason: "malformed tool call: arguments of find_contacts must be a JSON object",
    },
    {
      fault: { kind: "call", name: "find_contacts", arguments: '{"nickname": "Mi"}' } as Fault,
      reason:
        "malformed tool call: arguments of find_contacts fail its schema: arguments.nickname is not allowed",
    },
  ])("$reason", async ({ fault, reason }) => {
    const target = await start(() => fault);
    const [failed] = await rollout(agentFor(target));
    expect(failed!.endReason).toBe("agent_error");
    expect(failed!.error).toBe(reason);
    // Nothing malformed reached the environment.
    expect(failed!.steps).toEqual([]);
    expect(failed!.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
  });

  it("with repairAttempts, a malformed call is answered to the model as an error instead", async () => {
    const target = await start((n) =>
      n === 0 ? { kind: "call", name: "find_contacts", arguments: '{"nickname": "Mi"}' } : FINISH,
    );
    const [repaired] = await rollout(agentFor(target, { repairAttempts: 1 }));
    expect(repaired!.endReason).toBe("finish");
    expect(repaired!.steps.map((s) => s.tool)).toEqual(["finish"]);
    const second = target.bodies[1] as { messages: Array<{ role: string; content: string }> };
    expect(second.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_0",
      content: JSON.stringify({
        error: "arguments of find_contacts fail its schema: arguments.nickname is not allowed",
      }),
    });
  });

  it("a reply without tool calls is the answer, submitted through the finish tool", async () => {
    const target = await start(() => ({
      kind: "reply",
      message: { content: "  Lyon  " },
      logprobs: [
        {
          token: "Ly",
          logprob: Math.log(0.5),
          top_logprobs: [{ token: "Ly", logprob: Math.log(0.5) }],
        },
        { token: "on", logprob: Math.log(0.8) },
      ],
    }));
    const [answered] = await rollout(agentFor(target, { requestLogprobs: true, topLogprobs: 2 }));
    expect(answered!.endReason).toBe("finish");
    expect(answered!.answer).toBe("Lyon");
    expect(answered!.steps).toHaveLength(1);
    expect(answered!.steps[0]).toMatchObject({ tool: "finish", arguments: { answer: "Lyon" } });
    expect(answered!.steps[0]!.probability).toBeCloseTo(0.4, 12);
    // One token lacks alternatives: no entropy estimate rather than a wrong one.
    expect(answered!.steps[0]!.entropy).toBeNull();
    expect(answered!.usage).toEqual({ promptTokens: 7, completionTokens: 3 });
    const body = target.bodies[0] as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "fault",
      logprobs: true,
      top_logprobs: 2,
      tool_choice: "auto",
    });
    expect(body.metadata).toBeUndefined();
  });

  it("runs several tool calls of one message in order, without splitting their probability", async () => {
    const target = await start(() => ({
      kind: "reply",
      message: {
        content: null,
        tool_calls: [
          {
            id: "a",
            type: "function",
            function: { name: "list_files", arguments: '{"folder": "inbox"}' },
          },
          { id: "b", type: "function", function: { name: "finish", arguments: {} } },
        ],
      },
      logprobs: [{ token: "x", logprob: -0.1 }],
    }));
    const [episode] = await rollout(agentFor(target, { requestLogprobs: true }));
    expect(target.requests).toBe(1);
    expect(episode!.steps.map((s) => [s.index, s.tool, s.probability])).toEqual([
      [0, "list_files", null],
      [1, "finish", null],
    ]);
    expect(episode!.endReason).toBe("finish");
  });

  it("never has more requests in flight than its concurrency, across batches sharing the agent", async () => {
    const target = await start(() => ({ ...FINISH, delayMs: 40 }) as Fault);
    const agent = agentFor(target, { concurrency: 2 });
    await Promise.all([rollout(agent, 6), rollout(agent, 6)]);
    expect(target.requests).toBe(12);
    expect(target.maxInFlight).toBe(2);
  });

  it("a whole run completes with an endpoint that stalls on some requests", async () => {
    const small: RunConfigInput = {
      rounds: 1,
      tasksPerRound: 6,
      groupSize: 2,
      heldoutPerCell: 1,
      seedPoolSize: 14,
      synthesisBudget: 4,
    };
    const target = await start((n) => (n % 9 === 4 ? { kind: "stall" } : FINISH));
    const inner = agentFor(target, { timeoutMs: 100, concurrency: 4 });
    const results: EpisodeResult[] = [];
    const agent: Agent = {
      id: inner.id,
      concurrency: inner.concurrency,
      runEpisode: async (request) => {
        const result = await inner.runEpisode(request);
        results.push(result);
        return result;
      },
    };
    const { result } = await runInMemory(small, {
      deps: { ...createBuiltinDeps(parseRunConfig(small)), agent },
    });
    expect(result.rounds).toBe(1);
    expect(result.trainRollouts).toBe(12);
    const failed = results.filter((r) => r.endReason === "agent_error");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(results.length);
    expect(
      failed.every(
        (r) =>
          r.error ===
          `chat completions at ${target.baseUrl}/chat/completions timed out after 100 ms (gave up after 1 attempt)`,
      ),
    ).toBe(true);
  });
});

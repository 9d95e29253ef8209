import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parseRunConfig,
  type LlmSynthesizerConfig,
  type RunConfigInput,
} from "../../validations/run-config";
import { createPolicyChatHandler } from "../agents/openai/chat-server";
import { serveFetchHandler, type ServedHandler } from "../agents/openai/node-http";
import { createBuiltinDeps, type EngineDeps } from "../engine";
import type { SynthesisRequest, Synthesizer } from "../interfaces";
import { runInMemory } from "../run";
import { startFaultChatServer, type Fault } from "../testing/fault-chat-server";
import type { Task } from "../types";
import { createExecutionValidator } from "../validators/execution-validator";
import {
  createLlmSynthesizer,
  droppedCandidates,
  llmSynthesizerFromConfig,
  planSlots,
  type LlmSynthesizerOptions,
} from "./llm";
import { TASK_SCHEMA_NAME, type LlmTaskOutput } from "./llm-output";
import { answerWithRules } from "./rule-answer";
import { createRuleSynthesizer } from "./rule-based";

const SMALL: RunConfigInput = {
  rounds: 2,
  tasksPerRound: 8,
  groupSize: 4,
  heldoutPerCell: 1,
  seedPoolSize: 14,
  synthesisBudget: 8,
  seed: 3,
};

const API_KEY = "sk-synth-0123456789abcdef";

/** A synthesis request exactly as round 1 of SMALL hands it to the synthesizer. */
async function captureRequest(): Promise<SynthesisRequest> {
  const builtin = createBuiltinDeps(parseRunConfig(SMALL));
  const rules = createRuleSynthesizer();
  let captured: SynthesisRequest | null = null;
  const capturing: Synthesizer = {
    id: "capture",
    synthesize: (request) => {
      captured ??= request;
      return rules.synthesize(request);
    },
  };
  await runInMemory({ ...SMALL, rounds: 1 }, { deps: { ...builtin, synthesizer: capturing } });
  return captured!;
}

describe("LLM synthesizer against the builtin chat server over real HTTP", () => {
  let served: ServedHandler;
  const authorizations: string[] = [];
  const bodies: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const world = createBuiltinDeps(parseRunConfig(SMALL)).environment;
    const handler = createPolicyChatHandler({
      environment: world,
      apiKey: API_KEY,
      resolvePolicy: () => null,
      listModels: () => [],
      resolveTask: () => null,
    });
    served = await serveFetchHandler(async (request) => {
      authorizations.push(request.headers.get("authorization") ?? "");
      bodies.push((await request.clone().json()) as Record<string, unknown>);
      return handler(request);
    });
  });
  afterAll(async () => {
    await served.close();
  });

  const llm = (extra: Partial<LlmSynthesizerOptions> = {}) =>
    createLlmSynthesizer({
      baseUrl: `${served.url}/v1`,
      model: "coevolve-rules",
      apiKey: API_KEY,
      sendContext: true,
      concurrency: 4,
      timeoutMs: 10_000,
      ...extra,
    });

  it("runs whole rounds whose candidates, validation and curation match the builtin synthesizer", async () => {
    const builtinReports: unknown[] = [];
    const builtinRun = await runInMemory(SMALL, {
      onRound: (report) => builtinReports.push(report),
    });
    const synthesizer = llm();
    const drops: string[] = [];
    const deps: EngineDeps = { ...createBuiltinDeps(parseRunConfig(SMALL)), synthesizer };
    const httpReports: unknown[] = [];
    const requestsBefore = bodies.length;
    const httpRun = await runInMemory(SMALL, {
      deps,
      onRound: (report) => {
        httpReports.push(report);
        drops.push(...droppedCandidates(synthesizer).map((d) => d.reason));
      },
    });

    expect(drops).toEqual([]);
    expect(bodies.length - requestsBefore).toBe(2 * 8);
    const synthesized = httpRun.state.tasks.filter((t) => t.origin === "synthesized");
    expect(synthesized.length).toBeGreaterThan(0);
    // Validated by execution like builtin candidates: valid ones and their lineage are kept.
    expect(synthesized.every((t) => t.validation.status !== "pending")).toBe(true);
    expect(synthesized.every((t) => t.signalId !== null && t.relation !== null)).toBe(true);
    expect(httpRun.state.tasks).toEqual(builtinRun.state.tasks);
    expect(httpReports).toEqual(builtinReports);
    expect(httpRun.state.policy).toEqual(builtinRun.state.policy);
    expect(httpRun.result.heldout).toEqual(builtinRun.result.heldout);
    expect(JSON.stringify(httpRun.state)).not.toContain(API_KEY);
    expect(authorizations.every((a) => a === `Bearer ${API_KEY}`)).toBe(true);
  });

  it("asks for the coevolve_task schema in strict mode with a prompt built from the round", async () => {
    const request = await captureRequest();
    const before = bodies.length;
    const tasks = await llm({ concurrency: 1 }).synthesize(request);
    expect(tasks.length).toBeGreaterThan(0);
    const body = bodies[before] as {
      response_format: {
        type: string;
        json_schema: { name: string; strict: boolean; schema: { required: string[] } };
      };
      messages: Array<{ role: string; content: string }>;
      seed: number;
    };
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.name).toBe(TASK_SCHEMA_NAME);
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.required).toEqual([
      "instruction",
      "skill",
      "level",
      "relation",
      "spec_json",
      "reference",
      "expected",
    ]);
    const prompts = bodies
      .slice(before)
      .map((b) => (b as { messages: Array<{ content: string }> }).messages[0]!.content);
    // One request per slot, sent in slot order (concurrency 1).
    const slots = planSlots(request);
    expect(prompts).toHaveLength(slots.length);
    for (const [i, prompt] of prompts.entries()) {
      for (const tool of request.environment.tools()) expect(prompt).toContain(tool.function.name);
      expect(prompt).toContain(`## Signal: ${slots[i]!.signal.kind}`);
      expect(prompt).toContain(`"score": ${slots[i]!.signal.score}`);
      expect(prompt).not.toMatch(/\{\{/);
    }
    const withAttempt = slots.findIndex(
      (slot) =>
        slot.signal.taskId !== null &&
        request.trajectoriesById?.[slot.signal.trajectoryId ?? ""] !== undefined,
    );
    expect(withAttempt).toBeGreaterThanOrEqual(0);
    const signal = slots[withAttempt]!.signal;
    const source = request.tasksById[signal.taskId!]!;
    const trajectory = request.trajectoriesById![signal.trajectoryId!]!;
    const prompt = prompts[withAttempt]!;
    expect(prompt).toContain(JSON.stringify(source.instruction));
    expect(prompt).toContain(JSON.stringify(source.spec));
    expect(prompt).toContain(`1. ${trajectory.steps[0]!.tool}(`);
    expect(prompt).toContain(`outcome: ${trajectory.success ? "success" : "failure"}`);
  });

  it("refuses a template with unknown placeholders when it is built", () => {
    expect(() => llm({ promptTemplate: "{{tools}} {{trajectories}}" })).toThrow(
      "the LLM synthesizer's prompt template has unknown placeholders: trajectories",
    );
  });

  it("a custom template reaches the endpoint as written", async () => {
    const request = await captureRequest();
    const before = bodies.length;
    await llm({ promptTemplate: "Signal kind {{signal_kind}}. Tools:\n{{tools}}" }).synthesize(
      request,
    );
    const prompt = (bodies[before] as { messages: Array<{ content: string }> }).messages[0]!
      .content;
    expect(prompt).toMatch(/^Signal kind (forgetting|boundary|rare)\. Tools:\n- /);
  });

  it("refuses synthesis requests without the slot context, which the synthesizer drops", async () => {
    const request = await captureRequest();
    const config = parseRunConfig({
      synthesizer: { kind: "llm", baseUrl: `${served.url}/v1`, model: "m", retries: 0 },
    }).synthesizer;
    const synthesizer = llmSynthesizerFromConfig(config as LlmSynthesizerConfig, {
      apiKey: API_KEY,
    });
    expect(await synthesizer.synthesize(request)).toEqual([]);
    expect(synthesizer.drops).toHaveLength(request.budget);
    expect(synthesizer.drops[0]!.reason).toMatch(/HTTP 400: .*metadata\.coevolve_synthesis/);
  });
});

describe("LLM synthesizer faults", () => {
  let request: SynthesisRequest;
  let goodOutput: LlmTaskOutput;
  beforeAll(async () => {
    request = await captureRequest();
    const slot = planSlots(request)[0]!;
    goodOutput = (await answerWithRules(request.environment, {
      signal: slot.signal,
      sourceTask: request.tasksById[slot.signal.taskId ?? ""] ?? null,
      use: slot.use,
      runSeed: request.runSeed,
      generation: request.generation,
      harderAbove: request.options.harderAbove,
    }))!;
  });

  async function withFaults(
    plan: (n: number) => Fault,
    extra: Partial<LlmSynthesizerOptions> = {},
  ) {
    const server = await startFaultChatServer(plan);
    try {
      const synthesizer = createLlmSynthesizer({
        baseUrl: server.baseUrl,
        model: "fault",
        apiKey: API_KEY,
        concurrency: 2,
        timeoutMs: 2_000,
        retries: 0,
        sleep: async () => {},
        ...extra,
      });
      const tasks = await synthesizer.synthesize(request);
      return { tasks, drops: synthesizer.drops, requests: server.requests };
    } finally {
      await server.close();
    }
  }

  const reply = (content: string): Fault => ({ kind: "reply", message: { content } });

  it("a stalled endpoint times out; every candidate is dropped with the reason", async () => {
    const started = performance.now();
    const { tasks, drops } = await withFaults(() => ({ kind: "stall" }), { timeoutMs: 150 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(tasks).toEqual([]);
    expect(drops).toHaveLength(request.budget);
    expect(drops.map((d) => d.slot)).toEqual([...Array(request.budget).keys()]);
    expect(drops[0]!.reason).toMatch(/timed out after 150 ms \(gave up after 1 attempt\)$/);
    expect(droppedCandidates(createRuleSynthesizer())).toEqual([]);
  });

  it("500s are retried, then dropped with the reason and without the API key", async () => {
    const { tasks, drops, requests } = await withFaults(() => ({ kind: "status", status: 500 }), {
      retries: 2,
    });
    expect(tasks).toEqual([]);
    expect(requests).toBe(request.budget * 3);
    expect(drops).toHaveLength(request.budget);
    expect(drops[0]!.reason).toMatch(/answered HTTP 500: boom .*gave up after 3 attempts/);
    expect(drops[0]!.reason).toContain("[redacted]");
    expect(JSON.stringify(drops)).not.toContain(API_KEY);
  });

  it("one slot failing leaves the others: a 500 then good answers", async () => {
    const { tasks, drops } = await withFaults((n) =>
      n === 0 ? { kind: "status", status: 503 } : reply(JSON.stringify(goodOutput)),
    );
    expect(drops[0]).toMatchObject({ slot: 0, reason: expect.stringMatching(/HTTP 503/) });
    // The same answer for every other slot: the per-cell cap keeps maxPerCell of them.
    const kept = Math.min(request.budget - 1, request.options.maxPerCell);
    expect(tasks).toHaveLength(kept);
    expect(drops.slice(1).map((d) => d.reason)).toEqual(
      Array(request.budget - 1 - kept).fill(
        `cell ${goodOutput.skill}:${goodOutput.level} already has ${kept} candidates this round (maxPerCell)`,
      ),
    );
  });

  it("malformed response bodies and non-JSON content are dropped, each with its reason", async () => {
    const body = await withFaults(() => ({ kind: "malformed-json" }));
    expect(body.tasks).toEqual([]);
    expect(body.drops[0]!.reason).toMatch(/^malformed response: body is not JSON/);
    const content = await withFaults(() => reply("Sure! Here is a task: send Ada the file"));
    expect(content.drops[0]!.reason).toBe(
      "the reply is not JSON: Sure! Here is a task: send Ada the file",
    );
    const empty = await withFaults(() => ({ kind: "reply", message: { content: null } }));
    expect(empty.drops[0]!.reason).toBe("the reply has no content");
  });

  it("output that breaks the schema is dropped with what is wrong", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { instruction: goodOutput.instruction },
        /^the reply does not match the coevolve_task schema: skill: .*; level: /,
      ],
      [{ ...goodOutput, skill: "astrology" }, /^unknown skill 'astrology' \(known: .*lookup/],
      [{ ...goodOutput, level: 9 }, /^level 9 is not a level of \w+ \(1, 2, 3, 4, 5\)$/],
      [
        { ...goodOutput, reference: [{ tool: "launch_rocket", arguments_json: "{}" }] },
        /^reference step 1 calls unknown tool 'launch_rocket'$/,
      ],
      [
        {
          ...goodOutput,
          reference: [{ tool: goodOutput.reference[0]!.tool, arguments_json: "[1, 2]" }],
        },
        /^reference step 1 \(\w+\): arguments_json is not a JSON object$/,
      ],
      [{ ...goodOutput, relation: "sideways" }, /schema: relation: /],
      [{ ...goodOutput, extra: 1 }, /schema: \(root\): Unrecognized key: "extra"/],
      [{ ...goodOutput, spec_json: '"just a string"' }, /^spec_json is not a JSON object$/],
      [
        { ...goodOutput, spec_json: JSON.stringify({ kind: "toolworld/v1" }) },
        /^the environment refused the task: spec\.skill: /,
      ],
    ];
    for (const [output, reason] of cases) {
      const { tasks, drops } = await withFaults(() => reply(JSON.stringify(output)));
      expect(tasks, JSON.stringify(output).slice(0, 80)).toEqual([]);
      expect(drops[0]!.reason).toMatch(reason);
    }
  });

  it("a reference that fails its own checker is rejected by the execution validator", async () => {
    const withoutLastAction = {
      ...goodOutput,
      reference: goodOutput.reference.filter((_, i) => i !== goodOutput.reference.length - 2),
    };
    const wrongAnswer = { ...goodOutput, expected: { answer: "42 bananas", effects: [] } };
    for (const [output, reason] of [
      [withoutLastAction, /^reference solution fails its checker: /],
      [wrongAnswer, /^reference solution fails its checker: /],
    ] as const) {
      const { tasks, drops } = await withFaults(() => reply(JSON.stringify(output)), {});
      expect(drops.filter((d) => !d.reason.includes("maxPerCell"))).toEqual([]);
      const validated = await createExecutionValidator().validate({
        candidates: tasks.slice(0, 1),
        environment: request.environment,
        knownFingerprints: [],
      });
      const [task] = validated.tasks as [Task];
      expect(task.validation.status).toBe("invalid");
      expect(task.validation.reason).toMatch(reason);
    }
    // The unchanged answer passes the same validator: the failure above is the edit's doing.
    const { tasks } = await withFaults(() => reply(JSON.stringify(goodOutput)));
    const validated = await createExecutionValidator().validate({
      candidates: tasks.slice(0, 1),
      environment: request.environment,
      knownFingerprints: [],
    });
    expect(validated.tasks[0]!.validation).toEqual({ status: "valid", reason: null });
  });

  it("wrapped in a ```json fence, the answer is still read", async () => {
    const { tasks, drops } = await withFaults(() =>
      reply("```json\n" + JSON.stringify(goodOutput) + "\n```"),
    );
    expect(drops.filter((d) => !d.reason.includes("maxPerCell"))).toEqual([]);
    expect(tasks[0]!.instruction).toBe(goodOutput.instruction);
  });
});

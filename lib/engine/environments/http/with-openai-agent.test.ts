import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRunConfig, type RunConfigInput } from "../../../validations/run-config";
import { createOpenAiAgent } from "../../agents/openai/agent";
import { createPolicyChatHandler, createTaskDirectory } from "../../agents/openai/chat-server";
import { serveFetchHandler, type ServedHandler } from "../../agents/openai/node-http";
import { createBuiltinDeps, type EngineDeps } from "../../engine";
import type { Environment } from "../../interfaces";
import { runInMemory } from "../../run";
import { createLlmSynthesizer, droppedCandidates } from "../../synthesizers/llm";
import { createGrpoTrainer } from "../../trainers/grpo";
import type { PolicyCheckpoint, Task } from "../../types";
import { createToolWorld } from "../toolworld";
import { connectHttpEnvironment } from "./client";
import { createEnvironmentHandler, type EnvironmentHandler } from "./server";

const SMALL: RunConfigInput = {
  rounds: 2,
  tasksPerRound: 8,
  groupSize: 4,
  heldoutPerCell: 1,
  seedPoolSize: 14,
  synthesisBudget: 8,
  seed: 5,
};

let envHandler: EnvironmentHandler;
let envServer: ServedHandler;
let chatServer: ServedHandler;
const tasks = createTaskDirectory();
const policies = new Map<string, PolicyCheckpoint>();
const modelFor = (policy: PolicyCheckpoint) => {
  const name = `coevolve-builtin-v${policy.version}`;
  policies.set(name, policy);
  return name;
};

beforeAll(async () => {
  envHandler = createEnvironmentHandler(createToolWorld());
  envServer = await serveFetchHandler(envHandler);
  // The policy server plays the builtin policy in its own copy of the world; it learns each task
  // when an episode is opened on it, as a model server would know its training data.
  chatServer = await serveFetchHandler(
    createPolicyChatHandler({
      environment: createToolWorld(),
      resolvePolicy: (model) => policies.get(model) ?? null,
      listModels: () => [...policies.keys()],
      resolveTask: (query) => tasks.resolve(query),
    }),
  );
});
afterAll(async () => {
  await Promise.all([envServer.close(), chatServer.close()]);
});

describe("agent and environment each behind real HTTP", () => {
  it("runs setup and two rounds with the OpenAI-compatible agent in the HTTP environment, as the builtin agent does in-process", async () => {
    const remote = await connectHttpEnvironment({ baseUrl: envServer.url });
    const environment: Environment = {
      ...remote,
      openEpisode: (task: Task) => {
        tasks.add([task]);
        return remote.openEpisode(task);
      },
    };
    const deps: EngineDeps = {
      ...createBuiltinDeps(parseRunConfig(SMALL)),
      environment,
      trainer: createGrpoTrainer(environment),
      agent: createOpenAiAgent({
        baseUrl: `${chatServer.url}/v1`,
        model: modelFor,
        sendTaskId: true,
        requestLogprobs: true,
        topLogprobs: 1000,
        concurrency: 4,
      }),
    };
    const inProcess = await runInMemory(SMALL);
    const viaHttp = await runInMemory(SMALL, { deps });

    expect(viaHttp.result.rounds).toBe(2);
    expect(viaHttp.result.trainRollouts).toBe(2 * 8 * 4);
    expect(viaHttp.result.heldout.map((h) => h.success)).toEqual(
      inProcess.result.heldout.map((h) => h.success),
    );
    expect(viaHttp.state.tasks.map((t) => t.id)).toEqual(inProcess.state.tasks.map((t) => t.id));
    // The trainer replayed the agent's tool calls over the environment's HTTP views and reached
    // the checkpoint the in-process run reaches.
    expect(viaHttp.state.policy).toEqual(inProcess.state.policy);
    expect(envHandler.openSessions()).toBe(0);
  });

  it("runs two rounds with the agent, the LLM synthesizer and the environment each behind HTTP, as the builtin parts do in-process", async () => {
    const remote = await connectHttpEnvironment({ baseUrl: envServer.url });
    expect(remote.taskFromPortable).toBeTypeOf("function");
    const environment: Environment = {
      ...remote,
      openEpisode: (task: Task) => {
        tasks.add([task]);
        return remote.openEpisode(task);
      },
    };
    const synthesizer = createLlmSynthesizer({
      baseUrl: `${chatServer.url}/v1`,
      model: "coevolve-rules",
      sendContext: true,
      concurrency: 4,
    });
    const drops: string[] = [];
    const deps: EngineDeps = {
      ...createBuiltinDeps(parseRunConfig(SMALL)),
      environment,
      trainer: createGrpoTrainer(environment),
      synthesizer,
      agent: createOpenAiAgent({
        baseUrl: `${chatServer.url}/v1`,
        model: modelFor,
        sendTaskId: true,
        requestLogprobs: true,
        topLogprobs: 1000,
        concurrency: 4,
      }),
    };
    const inProcess = await runInMemory(SMALL);
    const viaHttp = await runInMemory(SMALL, {
      deps,
      onRound: () => drops.push(...droppedCandidates(synthesizer).map((d) => d.reason)),
    });

    expect(drops).toEqual([]);
    const synthesized = viaHttp.state.tasks.filter((t) => t.origin === "synthesized");
    expect(synthesized.some((t) => t.validation.status === "valid")).toBe(true);
    expect(viaHttp.state.tasks).toEqual(inProcess.state.tasks);
    expect(viaHttp.result.heldout.map((h) => h.success)).toEqual(
      inProcess.result.heldout.map((h) => h.success),
    );
    expect(viaHttp.state.policy).toEqual(inProcess.state.policy);
    expect(envHandler.openSessions()).toBe(0);
  });
});

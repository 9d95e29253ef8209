import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFetchHandler, type ServedHandler } from "../../agents/openai/node-http";
import { parseRunConfig, type RunConfigInput } from "@/lib/validations/run-config";
import { createBuiltinAgent } from "../../agents/builtin/agent";
import { createBuiltinDeps, type EngineDeps } from "../../engine";
import type { EpisodeSession } from "../../interfaces";
import { initRun } from "../../round";
import { runInMemory } from "../../run";
import { generateEvaluationSet, generateSeedPool } from "../../setup";
import { evaluatePolicy, validateTasks } from "../../stages";
import { createGrpoTrainer } from "../../trainers/grpo";
import { createToolWorld } from "../toolworld";
import { connectHttpEnvironment, type HttpEnvironment } from "./client";
import { createEnvironmentHandler, type EnvironmentHandler } from "./server";

const SMALL: RunConfigInput = {
  seed: 11,
  rounds: 2,
  tasksPerRound: 10,
  groupSize: 4,
  heldoutPerCell: 1,
  seedPoolSize: 14,
  synthesisBudget: 10,
};

let handler: EnvironmentHandler;
let served: ServedHandler;
let remote: HttpEnvironment;

beforeAll(async () => {
  handler = createEnvironmentHandler(createToolWorld());
  served = await serveFetchHandler(handler);
  remote = await connectHttpEnvironment({ baseUrl: served.url });
});
afterAll(async () => served.close());

/**
 * Everything that touches a task or an episode goes over HTTP: generation, validation, synthesis,
 * every rollout, the base policy's demonstrations and the trainer's replay of trajectories.
 */
function remoteDeps(local: EngineDeps): EngineDeps {
  return { ...local, environment: remote, trainer: createGrpoTrainer(remote) };
}

describe("an HTTP environment gives exactly the in-process results", () => {
  it("generates the same evaluation set and seed pool", async () => {
    const config = parseRunConfig(SMALL);
    const local = createToolWorld();
    expect(remote.id).toBe(local.id);
    expect(JSON.stringify(remote.describe())).toBe(JSON.stringify(local.describe()));
    expect(JSON.stringify(await generateEvaluationSet(remote, config, "heldout"))).toBe(
      JSON.stringify(await generateEvaluationSet(local, config, "heldout")),
    );
    expect(JSON.stringify(await generateSeedPool(remote, config))).toBe(
      JSON.stringify(await generateSeedPool(local, config)),
    );
  });

  it("reproduces setup over HTTP: validation verdicts, env steps and the generation-0 evaluation", async () => {
    const config = parseRunConfig(SMALL);
    const localDeps = createBuiltinDeps(config);
    const state = await initRun(config, localDeps);
    const deps = remoteDeps(localDeps);

    const heldout = await generateEvaluationSet(remote, config, "heldout");
    const seeds = await generateSeedPool(remote, config);
    const validated = await validateTasks(deps, {
      candidates: seeds,
      knownFingerprints: heldout.map((t) => t.fingerprint),
    });
    expect(validated.envSteps).toBe(state.counters.validationSteps);
    expect(validated.tasks.every((t) => t.validation.status === "valid")).toBe(true);
    expect(validated.tasks.map((t) => t.id)).toEqual(state.tasks.map((t) => t.id));

    const evaluation = await evaluatePolicy(deps, {
      runSeed: config.seed,
      generation: 0,
      policy: state.basePolicy,
      tasks: heldout,
      temperature: config.evalTemperature,
    });
    expect(JSON.stringify(evaluation.summary)).toBe(JSON.stringify(state.heldoutHistory[0]));
    const inProcess = await evaluatePolicy(localDeps, {
      runSeed: config.seed,
      generation: 0,
      policy: state.basePolicy,
      tasks: heldout,
      temperature: config.evalTemperature,
    });
    expect(JSON.stringify(evaluation.trajectories)).toBe(JSON.stringify(inProcess.trajectories));
    expect(handler.openSessions()).toBe(0);
  });

  it("runInMemory over HTTP (setup and two coevolve rounds) equals the in-process run byte for byte", async () => {
    const input: RunConfigInput = { ...SMALL, mode: "coevolve", seed: 12 };
    const inProcess = await runInMemory(input);
    const trainSteps: number[] = [];
    const viaHttp = await runInMemory(input, {
      deps: remoteDeps(createBuiltinDeps(parseRunConfig(input))),
      onRound: (report) => trainSteps.push(report.train.steps),
    });
    expect(viaHttp.state.generation).toBe(2);
    expect(viaHttp.state.counters.synthesized).toBeGreaterThan(0);
    // The trainer replayed decisions over HTTP in both rounds and moved the policy.
    expect(trainSteps.every((steps) => steps > 0)).toBe(true);
    expect(JSON.stringify(viaHttp.state.policy)).not.toBe(JSON.stringify(viaHttp.state.basePolicy));
    expect(JSON.stringify(viaHttp.state)).toBe(JSON.stringify(inProcess.state));
    expect(JSON.stringify(viaHttp.result)).toBe(JSON.stringify(inProcess.result));
    expect(handler.openSessions()).toBe(0);
  });

  it("validation on the server (POST /validate) agrees with client-side validation", async () => {
    const config = parseRunConfig(SMALL);
    const seeds = await generateSeedPool(remote, config);
    const candidates = [...seeds.slice(0, 4), seeds[0]!];
    const onServer = await remote.validateOnServer({ candidates, knownFingerprints: [] });
    const clientSide = await validateTasks(remoteDeps(createBuiltinDeps(config)), {
      candidates,
      knownFingerprints: [],
    });
    expect(JSON.stringify(onServer)).toBe(JSON.stringify(clientSide));
    expect(onServer.tasks.at(-1)!.validation.reason).toMatch(/^duplicate of task /);
  });

  it("the builtin agent refuses a session it cannot see candidates in, saying why", async () => {
    const config = parseRunConfig(SMALL);
    const [task] = await generateSeedPool(remote, config);
    const session = await remote.openEpisode(task!);
    const blind: EpisodeSession = {
      instruction: session.instruction,
      tools: session.tools,
      maxSteps: session.maxSteps,
      step: (call) => session.step(call),
      score: () => session.score(),
    };
    const state = await initRun(config, createBuiltinDeps(config));
    await expect(
      createBuiltinAgent().runEpisode({
        task: task!,
        session: blind,
        policy: state.policy,
        seed: 1,
        temperature: 1,
      }),
    ).rejects.toThrow(/builtin agent needs an environment that describes its candidate actions/);
    await session.close!();
  });
});

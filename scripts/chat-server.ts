/**
 * The builtin policy behind an OpenAI-compatible endpoint, for trying an OpenAI-compatible agent
 * (or any chat-completions client) without a hosted model:
 *
 *   npm run chat:serve -- --port 8766 [--seed 1] [--rounds 0] [--mode coevolve] [--host 127.0.0.1]
 *
 * Sets up the run in memory (seed pool, held-out set, base policy), optionally trains `--rounds`
 * rounds, then serves every checkpoint as model `coevolve-builtin-v<version>` (and the newest as
 * `coevolve-builtin`) over all the run's tasks. A conversation names its task by
 * `metadata.task_id` or by its exact instruction. Set POLICY_SERVER_API_KEY to require a key.
 */
import { parseArgs } from "node:util";
import {
  createPolicyChatHandler,
  createTaskDirectory,
} from "../lib/engine/agents/openai/chat-server";
import { serveFetchHandler } from "../lib/engine/agents/openai/node-http";
import { createBuiltinDeps } from "../lib/engine/engine";
import { initRun, runRound } from "../lib/engine/round";
import type { PolicyCheckpoint } from "../lib/engine/types";
import { parseRunConfig } from "../lib/validations/run-config";

const USAGE =
  "usage: npm run chat:serve -- [--port 8766] [--host 127.0.0.1] [--seed 1] [--rounds 0] [--mode coevolve|static|uniform]";

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8766" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string", default: "1" },
      rounds: { type: "string", default: "0" },
      mode: { type: "string", default: "coevolve" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`bad --port ${values.port}`);
  if (!Number.isInteger(rounds) || rounds < 0) throw new Error(`bad --rounds ${values.rounds}`);
  const config = parseRunConfig({ mode: values.mode, seed: Number(values.seed), rounds });
  const deps = createBuiltinDeps(config);

  const policies = new Map<string, PolicyCheckpoint>();
  const tasks = createTaskDirectory();
  const publish = (policy: PolicyCheckpoint) => {
    policies.set(`coevolve-builtin-v${policy.version}`, policy);
    policies.set("coevolve-builtin", policy);
  };
  let state = await initRun(config, deps);
  publish(state.policy);
  for (let r = 0; r < rounds; r++) {
    state = (await runRound(state, deps)).state;
    publish(state.policy);
    console.log(`trained round ${r + 1}/${rounds} → policy v${state.policy.version}`);
  }
  tasks.add([...state.heldout, ...state.tasks]);

  const apiKey = process.env.POLICY_SERVER_API_KEY || undefined;
  const served = await serveFetchHandler(
    createPolicyChatHandler({
      environment: deps.environment,
      resolvePolicy: (model) => policies.get(model) ?? null,
      listModels: () => [...policies.keys()],
      resolveTask: (query) => tasks.resolve(query),
      apiKey,
      now: () => Date.now() / 1000,
    }),
    { port, host: values.host },
  );
  console.log(
    `builtin policy (${config.mode}, seed ${config.seed}) over ${tasks.size} tasks at ${served.url}/v1` +
      ` · models: ${[...policies.keys()].join(", ")}${apiKey ? " · API key required" : ""}`,
  );
  const stop = () => {
    served.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});

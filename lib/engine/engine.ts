import type { RunConfig } from "../validations/run-config";
import { createBuiltinAgent } from "./agents/builtin/agent";
import { createToolWorld } from "./environments/toolworld";
import type { Agent, Environment, Synthesizer, Trainer, Validator } from "./interfaces";
import { createRuleSynthesizer, createUniformSynthesizer } from "./synthesizers/rule-based";
import { createGrpoTrainer } from "./trainers/grpo";
import { createExecutionValidator } from "./validators/execution-validator";

/** The pluggable parts a run uses, chosen from its config. */
export type EngineDeps = {
  environment: Environment;
  agent: Agent;
  trainer: Trainer;
  synthesizer: Synthesizer;
  validator: Validator;
};

let sharedWorld: Environment | null = null;

/** The builtin (embedded, in-process) implementations. Stateless, so safe to share. */
export function createBuiltinDeps(
  config: Pick<RunConfig, "mode" | "environment" | "agent">,
): EngineDeps {
  if (config.environment !== "toolworld")
    throw new Error(`unknown environment ${config.environment}`);
  if (config.agent !== "builtin") throw new Error(`unknown agent ${config.agent}`);
  sharedWorld ??= createToolWorld();
  return {
    environment: sharedWorld,
    agent: createBuiltinAgent(),
    trainer: createGrpoTrainer(sharedWorld),
    synthesizer: config.mode === "uniform" ? createUniformSynthesizer() : createRuleSynthesizer(),
    validator: createExecutionValidator(),
  };
}

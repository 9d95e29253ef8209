/**
 * Public API of the evolution engine. Pure: no database, no Next, no network, no filesystem, no
 * clock and no Math.random — every stage maps plain JSON data to plain JSON data, deterministic
 * for a given run seed. See README.md in this folder for the stage-by-stage contract.
 */
export type * from "./types";
export type * from "./interfaces";
export type * from "./environment-types";

export { createBuiltinDeps, type EngineDeps } from "./engine";
export { createToolWorld, TOOLWORLD_ID, SKILL_IDS, LEVELS } from "./environments/toolworld";
export { createBuiltinAgent, BUILTIN_AGENT_ID } from "./agents/builtin/agent";
export { BUILTIN_POLICY_KIND } from "./agents/builtin/checkpoint";
export { createGrpoTrainer, BUILTIN_TRAINER_ID } from "./trainers/grpo";
export { groupAdvantages } from "./trainers/advantages";
export {
  createRuleSynthesizer,
  createUniformSynthesizer,
  RULE_SYNTHESIZER_ID,
  UNIFORM_SYNTHESIZER_ID,
} from "./synthesizers/rule-based";
export {
  createLlmSynthesizer,
  droppedCandidates,
  LLM_SYNTHESIZER_ID,
  llmSynthesizerFromConfig,
  type LlmSynthesizer,
  type LlmSynthesizerOptions,
  type SynthesisDrop,
} from "./synthesizers/llm";
export { DEFAULT_PROMPT_TEMPLATE, PROMPT_PLACEHOLDERS } from "./synthesizers/llm-prompt";
export { createExecutionValidator, EXECUTION_VALIDATOR_ID } from "./validators/execution-validator";

// Setup
export {
  generateEvaluationSet,
  generateSeedPool,
  createBasePolicy,
  createBasePolicyAsync,
} from "./setup";

// Stages, in round order
export { planRollouts, type RolloutPlanItem } from "./stages";
export { rolloutBatch, episodeSeed, trajectoryId, type RolloutBatchInput } from "./rollout";
export { summarizeGroups, countUsage, extractSignals, detectForgetting } from "./signals";
export { buildTrainingGroups, trainPolicy, evaluatePolicy, measureDifficulty } from "./stages";
export { synthesizeTasks, validateTasks, rankApproved, indexTasks } from "./stages";
export { curateTasks, reviewTask, type CurationSettings, type ReviewMode } from "./curation/curate";
export { selectNextPool, replayPriority, type NextPoolInput } from "./pool";
export { createHistory, updateHistory } from "./history";
export { summarizeHeldout } from "./evaluation";
export { computeGenerationStats, quantiles } from "./stats";

// Whole runs
export { initRun, runRound, type RunState, type RoundReport, type RunCounters } from "./round";
export { runInMemory, summarizeRun, type RunResult } from "./run";

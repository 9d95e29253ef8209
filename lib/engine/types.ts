/**
 * Plain, JSON-serializable data that flows between the round's stages. The job layer stores these
 * as rows/JSONB and feeds them back in, so nothing here may hold functions, classes, Maps or Dates.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type SignalKind = "forgetting" | "boundary" | "rare";
export const SIGNAL_KINDS: readonly SignalKind[] = ["forgetting", "boundary", "rare"];

export type TaskOrigin = "seed" | "synthesized" | "imported";
/** "dev" is the tuning set: generated like held-out but from a different stream, never reported. */
export type TaskSplit = "train" | "heldout" | "dev";
export type ValidationStatus = "pending" | "valid" | "invalid";
export type ReviewStatus = "pending" | "approved" | "rejected";
export type RolloutPurpose = "train" | "eval" | "validation" | "demo";

/** How a synthesized task relates to its parent. */
export type TaskRelation = "variant" | "harder" | "easier" | "explore";

export type ToolCall = { tool: string; arguments: JsonObject };

/** OpenAI function-calling tool format, so an LLM agent can be handed the list unchanged. */
export type OpenAiTool = {
  type: "function";
  function: { name: string; description: string; parameters: JsonObject };
};

export type Task = {
  /** Stable id derived from the fingerprint: the same task content always gets the same id. */
  id: string;
  /** Hash of the normalized instruction + spec; unique within a run (duplicates are rejected). */
  fingerprint: string;
  environment: string;
  skill: string;
  level: number;
  /** From structure at birth (calls, entities, distractors, chaining), in [0, 1]. */
  estimatedDifficulty: number;
  /** 1 − pass rate of the first policy that attempted it; null until attempted. */
  measuredDifficulty: number | null;
  measuredByPolicyVersion: number | null;
  origin: TaskOrigin;
  signal: SignalKind | null;
  signalId: string | null;
  parentTaskId: string | null;
  relation: TaskRelation | null;
  triggerTrajectoryId: string | null;
  bornGeneration: number;
  instruction: string;
  /** Environment-owned; enough to rebuild the world, the reference solution and the checker. */
  spec: JsonObject;
  split: TaskSplit;
  validation: { status: ValidationStatus; reason: string | null };
  review: { status: ReviewStatus; by: string | null; note: string | null };
};

/**
 * "finish": the agent ended the episode; "max_steps": it ran out of steps; "agent_error": the
 * agent itself failed (a remote endpoint timed out, kept erroring, or answered malformed calls).
 */
export type EndReason = "finish" | "max_steps" | "agent_error";

export type TokenUsage = { promptTokens: number; completionTokens: number };

export type TrajectoryStep = {
  index: number;
  tool: string;
  arguments: JsonObject;
  observation: Json;
  /** Probability the policy gave the chosen action; null for agents that cannot report it. */
  probability: number | null;
  entropy: number | null;
  candidateCount: number | null;
  isError: boolean;
};

export type Trajectory = {
  /** `${purpose}:${generation}:${taskId}:${sampleIndex}` — unique together, as the DB expects. */
  id: string;
  taskId: string;
  generation: number;
  purpose: RolloutPurpose;
  sampleIndex: number;
  policyVersion: number;
  steps: TrajectoryStep[];
  reward: number;
  success: boolean;
  /** The episode changed the world in a way the task did not ask for. */
  sideEffect: boolean;
  stepCount: number;
  meanEntropy: number;
  answer: string | null;
  endReason: EndReason;
  /** The checker's reason for failing, for people reading trajectories. */
  failure: string | null;
  /** Tokens a remote agent spent on the episode (absent for the builtin agent). */
  usage?: TokenUsage;
  /**
   * Why the agent could not finish the episode (timeout, endpoint errors, malformed tool calls);
   * set exactly when `endReason` is "agent_error". Never holds credentials.
   */
  error?: string;
};

/** A policy snapshot. `payload` belongs to the agent implementation that wrote it. */
export type PolicyCheckpoint = {
  kind: string;
  version: number;
  payload: JsonObject;
};

export type Signal = {
  id: string;
  generation: number;
  kind: SignalKind;
  /** In [0, 1]; higher = more worth synthesizing for. */
  score: number;
  taskId: string | null;
  trajectoryId: string | null;
  skill: string | null;
  level: number | null;
  details: JsonObject;
};

/** Outcome of one GRPO group (or one eval task): G samples of one task. */
export type GroupOutcome = {
  taskId: string;
  skill: string;
  level: number;
  samples: number;
  successes: number;
  passRate: number;
  meanReward: number;
  meanEntropy: number;
  meanSteps: number;
};

/** What the run remembers about a training task across generations (forgetting, replay). */
export type TaskRecord = {
  taskId: string;
  skill: string;
  level: number;
  firstGeneration: number;
  lastGeneration: number;
  lastPassRate: number;
  bestGeneration: number;
  bestPassRate: number;
  attempts: number;
};

/** Usage counts from one generation's training trajectories (for the rare signal). */
export type UsageCounts = {
  generation: number;
  trajectories: number;
  tools: Record<string, number>;
  transitions: Record<string, number>;
  /** `${skill}:${level}` → attempts and successes. */
  cells: Record<string, { attempts: number; successes: number }>;
};

export type RunHistory = {
  tasks: Record<string, TaskRecord>;
  /** Most recent last; bounded to the rare-signal window. */
  usage: UsageCounts[];
};

export type SkillSplitStats = {
  generation: number;
  skill: string;
  split: TaskSplit;
  attempts: number;
  successes: number;
  meanReward: number;
};

export type GenerationStats = {
  generation: number;
  rows: SkillSplitStats[];
  /** Quantiles (0, .25, .5, .75, 1) of estimated difficulty of the tasks born this generation. */
  newTaskDifficulty: number[] | null;
  /** Quantiles of measured difficulty of the tasks first attempted this generation. */
  measuredDifficulty: number[] | null;
  signalCounts: Record<SignalKind, number>;
  newTasks: number;
  invalidTasks: number;
  approvedTasks: number;
};

export type HeldoutSummary = {
  generation: number;
  success: number;
  bySkill: Record<string, number>;
  byLevel: Record<string, number>;
  sideEffectRate: number;
  episodes: number;
  envSteps: number;
  rows: SkillSplitStats[];
};

export type TrainReport = {
  groups: number;
  informativeGroups: number;
  trajectories: number;
  steps: number;
  clippedSteps: number;
  gradientNorm: number;
  weightDriftFromBase: number;
};

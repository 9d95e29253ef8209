import type {
  Json,
  OpenAiTool,
  SignalKind,
  TaskOrigin,
  TaskRelation,
  TaskSplit,
  ToolCall,
} from "./types";

export type EpisodeStepResult = { observation: Json; isError: boolean; isDone: boolean };

export type EpisodeOutcome = {
  success: boolean;
  reward: number;
  sideEffect: boolean;
  answer: string | null;
  /** Why the checker failed the episode, for people reading trajectories. */
  failure: string | null;
};

export type SkillInfo = {
  id: string;
  description: string;
  levels: number[];
  /** Tools the skill's reference solutions use, by level (for rare-tool targeting). */
  toolsByLevel: Record<string, string[]>;
  /** Tool transitions ("a>b") a reference solution at each level goes through. */
  transitionsByLevel: Record<string, string[]>;
  /** Skills this one composes, if any. */
  composes: string[];
};

export type EnvironmentCatalog = {
  id: string;
  skills: SkillInfo[];
  tools: OpenAiTool[];
};

/** A candidate action plus the environment's description of it, for feature-based policies. */
export type CandidateAction = { call: ToolCall; key: string; facts: readonly string[] };

export type CandidateView = {
  /** Instruction tokens with entities replaced by their type. */
  words: readonly string[];
  /** Task-state flags at this step ("items still to move", …). */
  flags: readonly string[];
  previousTool: string | null;
  candidates: CandidateAction[];
};

export type TaskRequest = {
  skill: string;
  level: number;
  seed: number;
  split: TaskSplit;
  origin: TaskOrigin;
  generation: number;
  signal?: SignalKind | null;
  signalId?: string | null;
  parentTaskId?: string | null;
  relation?: TaskRelation | null;
  triggerTrajectoryId?: string | null;
};

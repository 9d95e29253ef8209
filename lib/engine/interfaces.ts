/**
 * The pluggable parts of a round. Each has a builtin implementation in this folder and may later
 * get a remote one (OpenAI-compatible agent, LLM synthesizer, HTTP environment server, external
 * trainer). Anything that might cross a network is Promise-returning; builtin implementations
 * answer synchronously inside and also expose a `local` fast path that only in-process callers use.
 */
import type {
  EpisodeOutcome,
  EpisodeStepResult,
  EnvironmentCatalog,
  CandidateView,
  TaskRequest,
} from "./environment-types";
import type {
  EndReason,
  JsonObject,
  OpenAiTool,
  PolicyCheckpoint,
  Signal,
  SignalKind,
  Task,
  TokenUsage,
  ToolCall,
  TrainReport,
  Trajectory,
  TrajectoryStep,
} from "./types";

export type {
  EpisodeOutcome,
  EpisodeStepResult,
  EnvironmentCatalog,
  CandidateView,
  TaskRequest,
} from "./environment-types";

/** Synchronous in-process episode with candidate listing — what the builtin policy acts over. */
export type LocalEpisode = {
  readonly maxSteps: number;
  readonly stepIndex: number;
  readonly isDone: boolean;
  view(): CandidateView;
  stepSync(call: ToolCall): EpisodeStepResult;
  scoreSync(): EpisodeOutcome;
};

/** One live attempt at a task. An HTTP environment server implements this per session. */
export type EpisodeSession = {
  readonly instruction: string;
  readonly tools: OpenAiTool[];
  readonly maxSteps: number;
  step(call: ToolCall): Promise<EpisodeStepResult>;
  /** Scores the episode as it stands: checker verdict, reward, side effects. */
  score(): Promise<EpisodeOutcome>;
  /** Valid calls the agent could make now, if the environment can enumerate them. */
  listCandidates?(): Promise<ToolCall[]>;
  /**
   * Candidates with the environment's facts about them and the task state: what a feature-based
   * policy (the builtin agent) needs to act in an environment it does not hold in-process.
   */
  view?(): Promise<CandidateView>;
  close?(): Promise<void>;
  local?: LocalEpisode;
};

/** A task as a person or another run wrote it down (the import/export "tasks" format). */
export type PortableTask = {
  instruction: string;
  skill: string;
  level: number;
  spec: JsonObject;
  /** Replaces the reference solution held in the spec, when given. */
  reference?: ToolCall[];
  /**
   * Replaces the checker's expected outcome held in the spec, when given: the final answer (null
   * when none is asked) and the net world changes, in the environment's effect vocabulary
   * (ToolWorld: `spec.expect`). The LLM synthesizer states it separately from the world.
   */
  expect?: { answer: string | null; effects: string[] };
};

/** Where a rebuilt task is born: imported seed tasks enter generation 0 of the train split. */
export type PortableTaskContext = Pick<TaskRequest, "origin" | "generation" | "split">;

export type PortableTaskResult =
  { ok: true; task: Task } | { ok: false; issues: { path: string; message: string }[] };

export type Environment = {
  readonly id: string;
  describe(): EnvironmentCatalog;
  tools(): OpenAiTool[];
  generateTask(request: TaskRequest): Promise<Task>;
  /** The reference solution a validator replays (the checker never trusts it blindly). */
  referenceSolution(task: Task): Promise<ToolCall[]>;
  openEpisode(task: Task): Promise<EpisodeSession>;
  /**
   * Rebuilds a task from its portable form (import), with the same id and fingerprint the
   * environment gave it at birth. Structural problems come back as issues; whether the reference
   * solves it is the validator's job, exactly as for synthesized tasks.
   */
  taskFromPortable?(
    input: PortableTask,
    context: PortableTaskContext,
  ): PortableTaskResult | Promise<PortableTaskResult>;
  /** Builtin environments expose synchronous task generation for the in-process fast path. */
  local?: {
    generateTask(request: TaskRequest): Task;
    openEpisode(task: Task): LocalEpisode;
    referenceSolution(task: Task): ToolCall[];
  };
};

export type EpisodeRequest = {
  task: Task;
  session: EpisodeSession;
  policy: PolicyCheckpoint;
  /** Derived from (run seed, generation, task, sample, purpose): never from batch position. */
  seed: number;
  temperature: number;
};

export type EpisodeResult = {
  steps: TrajectoryStep[];
  endReason: EndReason;
  usage?: TokenUsage;
  /** Set with endReason "agent_error": the reason the rollout failed. */
  error?: string;
};

export type Agent = {
  readonly id: string;
  /**
   * Episodes a rollout batch may run at once with this agent (remote agents overlap network
   * waits); absent = 1. Results never depend on it: each episode's randomness comes from its seed.
   */
  readonly concurrency?: number;
  /** A remote agent reports failures in the result (endReason "agent_error"); it never throws. */
  runEpisode(request: EpisodeRequest): Promise<EpisodeResult>;
};

export type TrainingGroup = { task: Task; trajectories: Trajectory[] };

export type TrainerSettings = {
  learningRate: number;
  l2ToBase: number;
  clipEpsilon: number;
  minibatchGroups: number;
  epochs: number;
};

export type TrainRequest = {
  policy: PolicyCheckpoint;
  base: PolicyCheckpoint;
  groups: TrainingGroup[];
  settings: TrainerSettings;
  /** The checkpoint this produces gets this version. */
  nextVersion: number;
};

export type Trainer = {
  readonly id: string;
  train(request: TrainRequest): Promise<{ policy: PolicyCheckpoint; report: TrainReport }>;
};

export type SynthesisRequest = {
  generation: number;
  runSeed: number;
  signals: Signal[];
  /** Parents the signals point at (and any other task the synthesizer may vary). */
  tasksById: Record<string, Task>;
  budget: number;
  weights: Record<SignalKind, number>;
  /** Targeting knobs; a synthesizer may ignore them. */
  options: { harderAbove: number; maxPerCell: number };
  environment: Environment;
  /** The trajectories signals point at (`signal.trajectoryId`): what went wrong or was unsure. */
  trajectoriesById?: Record<string, Trajectory>;
};

export type Synthesizer = {
  readonly id: string;
  synthesize(request: SynthesisRequest): Promise<Task[]>;
};

export type ValidationRequest = {
  candidates: Task[];
  environment: Environment;
  /** Fingerprints of every earlier task of the run, the held-out set included. */
  knownFingerprints: readonly string[];
};

export type ValidationResult = { tasks: Task[]; envSteps: number };

export type Validator = {
  readonly id: string;
  validate(request: ValidationRequest): Promise<ValidationResult>;
};

import type { LlmSynthesizerConfig } from "../../validations/run-config";
import type { EnvironmentCatalog } from "../environment-types";
import type { Environment, PortableTaskResult, Synthesizer, SynthesisRequest } from "../interfaces";
import {
  ChatCallFailure,
  createChatClient,
  describeError,
  type ChatClientOptions,
} from "../openai/chat-client";
import type { ChatCompletionRequest } from "../agents/openai/wire";
import { createRng, deriveSeed } from "../rng";
import type { Signal, SignalKind, Task, Trajectory } from "../types";
import {
  DEFAULT_PROMPT_TEMPLATE,
  renderPrompt,
  unknownPlaceholders,
  type PromptValues,
} from "./llm-prompt";
import {
  readTaskOutput,
  RELATIONS,
  SYNTHESIS_CONTEXT_KEY,
  TASK_SCHEMA_NAME,
  taskOutputSchema,
  type SynthesisContext,
} from "./llm-output";
import { allocateBudget } from "./plan";

export const LLM_SYNTHESIZER_ID = "llm";

export type LlmSynthesizerOptions = Pick<
  ChatClientOptions,
  "baseUrl" | "apiKey" | "concurrency" | "timeoutMs" | "retries" | "backoff" | "fetch" | "sleep"
> & {
  model: string;
  /** `{{placeholder}}` template (see llm-prompt.ts); default DEFAULT_PROMPT_TEMPLATE. */
  promptTemplate?: string;
  /** Default 0.7: a little variety between candidates for the same signal. */
  temperature?: number;
  maxTokens?: number;
  /**
   * Send the slot's context as `metadata.coevolve_synthesis` (JSON). Only this project's builtin
   * chat server reads it; leave off for hosted endpoints.
   */
  sendContext?: boolean;
  /** Called for every candidate that is dropped before validation, with the reason. */
  onDrop?: (drop: SynthesisDrop) => void;
  id?: string;
};

/** A slot that produced no candidate: the endpoint failed or its output was not a usable task. */
export type SynthesisDrop = {
  generation: number;
  /** 0-based position in the round's slot plan. */
  slot: number;
  signalId: string;
  signalKind: SignalKind;
  reason: string;
};

export type LlmSynthesizer = Synthesizer & {
  /** Drops of the latest `synthesize` call, in slot order. */
  readonly drops: readonly SynthesisDrop[];
};

/**
 * The synthesizer a run's `synthesizer: {kind: "llm", …}` config describes. The key comes from
 * the config's saved `connection`, resolved by the caller (the engine never reads secrets).
 */
export function llmSynthesizerFromConfig(
  config: LlmSynthesizerConfig,
  extra: Pick<LlmSynthesizerOptions, "apiKey" | "sendContext" | "onDrop" | "fetch"> = {},
): LlmSynthesizer {
  return createLlmSynthesizer({
    baseUrl: config.baseUrl,
    model: config.model,
    promptTemplate: config.promptTemplate,
    concurrency: config.concurrency,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    sendContext: config.sendContext,
    ...extra,
  });
}

/** What a synthesizer dropped in its latest call: the LLM synthesizer's drops, else none. */
export function droppedCandidates(synthesizer: Synthesizer): readonly SynthesisDrop[] {
  const drops = (synthesizer as Partial<LlmSynthesizer>).drops;
  return Array.isArray(drops) ? drops : [];
}

type Slot = { index: number; signal: Signal; use: number };

function byScore(a: Signal, b: Signal) {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The budget split by signal weight (as the builtin synthesizer does), each kind's share dealt
 * round-robin over its signals best-first: one model request per slot.
 */
export function planSlots(request: Pick<SynthesisRequest, "signals" | "budget" | "weights">) {
  const present = new Set<SignalKind>(request.signals.map((s) => s.kind));
  const budgets = allocateBudget(request.budget, request.weights, present);
  const slots: Slot[] = [];
  for (const kind of ["forgetting", "boundary", "rare"] as const) {
    const signals = request.signals.filter((s) => s.kind === kind).sort(byScore);
    for (let i = 0; i < budgets[kind]; i++) {
      slots.push({
        index: slots.length,
        signal: signals[i % signals.length]!,
        use: Math.floor(i / signals.length),
      });
    }
  }
  return slots;
}

/**
 * A synthesizer behind any OpenAI-compatible chat-completions endpoint with structured output.
 * Per slot it renders the prompt (tools, skills, signal, source task, the attempt), asks for a
 * `coevolve_task` JSON object, and rebuilds it as an environment task through
 * `environment.taskFromPortable` with the slot's lineage. Whatever goes wrong with one slot —
 * timeouts, HTTP errors, malformed JSON, output that breaks the schema or names unknown skills
 * or tools — drops that candidate with a reason; the round goes on. Candidates it returns are
 * validated by execution like any other.
 */
export function createLlmSynthesizer(options: LlmSynthesizerOptions): LlmSynthesizer {
  const client = createChatClient({ ...options, owner: "the LLM synthesizer" });
  const template = options.promptTemplate ?? DEFAULT_PROMPT_TEMPLATE;
  const unknown = unknownPlaceholders(template);
  if (unknown.length > 0) {
    // A configuration mistake: refuse at construction rather than drop every candidate later.
    throw new Error(
      `the LLM synthesizer's prompt template has unknown placeholders: ${unknown.join(", ")}`,
    );
  }
  let drops: SynthesisDrop[] = [];

  async function synthesize(request: SynthesisRequest): Promise<Task[]> {
    const { environment } = request;
    const fromPortable = environment.taskFromPortable?.bind(environment);
    if (!fromPortable) {
      throw new Error(
        `environment ${environment.id} cannot rebuild tasks from their portable form, which the LLM synthesizer needs`,
      );
    }
    const catalog = environment.describe();
    const schema = taskOutputSchema(catalog);
    const shared = sharedValues(environment, catalog);
    const slots = planSlots(request);
    const current: SynthesisDrop[] = [];
    drops = current;
    const drop = (slot: Slot, reason: string) => {
      const entry: SynthesisDrop = {
        generation: request.generation,
        slot: slot.index,
        signalId: slot.signal.id,
        signalKind: slot.signal.kind,
        reason: client.redact(reason),
      };
      current.push(entry);
      options.onDrop?.(entry);
      return null;
    };

    const attempt = async (slot: Slot): Promise<Task | null> => {
      const { signal } = slot;
      const sourceTask = signal.taskId ? (request.tasksById[signal.taskId] ?? null) : null;
      const trajectory = signal.trajectoryId
        ? (request.trajectoriesById?.[signal.trajectoryId] ?? null)
        : null;
      const seed = deriveSeed(
        "llm-synth",
        request.runSeed,
        request.generation,
        signal.id,
        slot.use,
      );
      const body: ChatCompletionRequest = {
        model: options.model,
        messages: [
          {
            role: "user",
            content: renderPrompt(template, {
              ...shared,
              ...slotValues(signal, sourceTask, trajectory),
            }),
          },
        ],
        temperature: options.temperature ?? 0.7,
        seed,
        response_format: {
          type: "json_schema",
          json_schema: { name: TASK_SCHEMA_NAME, schema, strict: true },
        },
      };
      if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
      if (options.sendContext) {
        const context: SynthesisContext = {
          signal,
          sourceTask,
          use: slot.use,
          runSeed: request.runSeed,
          generation: request.generation,
          harderAbove: request.options.harderAbove,
        };
        body.metadata = { [SYNTHESIS_CONTEXT_KEY]: JSON.stringify(context) };
      }
      let content: string | null;
      try {
        content = (await client.complete(body, createRng(seed).next)).content;
      } catch (error) {
        return drop(
          slot,
          error instanceof ChatCallFailure ? error.message : `failed: ${describeError(error)}`,
        );
      }
      const output = readTaskOutput(content, catalog);
      if (typeof output === "string") return drop(slot, output);
      let built: PortableTaskResult;
      try {
        built = await fromPortable(output.portable, {
          origin: "synthesized",
          generation: request.generation,
          split: "train",
        });
      } catch (error) {
        // A remote environment may fail to answer; that costs this candidate, not the round.
        return drop(slot, `the environment could not rebuild the task: ${describeError(error)}`);
      }
      if (!built.ok) {
        return drop(
          slot,
          `the environment refused the task: ${built.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
        );
      }
      return {
        ...built.task,
        origin: "synthesized",
        bornGeneration: request.generation,
        split: "train",
        signal: signal.kind,
        signalId: signal.id,
        parentTaskId: sourceTask?.id ?? null,
        relation: output.relation,
        triggerTrajectoryId: signal.trajectoryId,
      };
    };

    // Requests overlap (the client's gate bounds them); results keep slot order.
    const results = await Promise.all(slots.map(attempt));
    const out: Task[] = [];
    const perCell = new Map<string, number>();
    for (const [i, task] of results.entries()) {
      if (!task) continue;
      const cell = `${task.skill}:${task.level}`;
      const count = perCell.get(cell) ?? 0;
      if (count >= request.options.maxPerCell) {
        drop(slots[i]!, `cell ${cell} already has ${count} candidates this round (maxPerCell)`);
        continue;
      }
      perCell.set(cell, count + 1);
      out.push(task);
    }
    current.sort((a, b) => a.slot - b.slot);
    return out;
  }

  return {
    id: options.id ?? LLM_SYNTHESIZER_ID,
    synthesize,
    get drops() {
      return drops;
    },
  };
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function sharedValues(environment: Environment, catalog: EnvironmentCatalog) {
  const tools = environment
    .tools()
    .map(
      (t) =>
        `- ${t.function.name}: ${t.function.description ?? ""}\n  parameters: ${JSON.stringify(t.function.parameters)}`,
    )
    .join("\n");
  const skills = catalog.skills
    .map((s) => `- ${s.id} (levels ${s.levels.join(", ")}): ${s.description}`)
    .join("\n");
  const relations = [
    `one of ${RELATIONS.join(", ")} —`,
    "variant: same skill and level in a fresh situation;",
    "harder: one level up; easier: one level down (a stepping stone);",
    "explore: practice where the agent rarely goes.",
  ].join(" ");
  return { tools, skills, relations };
}

function slotValues(
  signal: Signal,
  source: Task | null,
  trajectory: Trajectory | null,
): Omit<PromptValues, "tools" | "skills" | "relations"> {
  return {
    signal_kind: signal.kind,
    signal: json({
      kind: signal.kind,
      score: signal.score,
      skill: signal.skill,
      level: signal.level,
      details: signal.details,
    }),
    source_task: source
      ? json({ instruction: source.instruction, skill: source.skill, level: source.level })
      : "(none: this signal is about a skill, level or tool rather than one task)",
    source_spec: source ? JSON.stringify(source.spec) : "(none)",
    trajectory: trajectory
      ? summarizeTrajectory(trajectory)
      : "(no single attempt behind this signal)",
  };
}

/** Steps with clipped observations, then the outcome: enough to see where the attempt went wrong. */
export function summarizeTrajectory(trajectory: Trajectory): string {
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
  const lines = trajectory.steps.map((step) => {
    const entropy = step.entropy === null ? "" : ` (entropy ${step.entropy.toFixed(2)})`;
    return `${step.index + 1}. ${step.tool}(${JSON.stringify(step.arguments)})${entropy}${step.isError ? " [error]" : ""} → ${clip(JSON.stringify(step.observation), 240)}`;
  });
  const outcome = [
    `outcome: ${trajectory.success ? "success" : "failure"}`,
    `reward ${trajectory.reward}`,
    `ended by ${trajectory.endReason}`,
    trajectory.failure ? `checker: ${trajectory.failure}` : null,
    trajectory.answer !== null ? `answer: ${JSON.stringify(trajectory.answer)}` : null,
  ]
    .filter((part) => part !== null)
    .join("; ");
  return [...(lines.length > 0 ? lines : ["(no steps)"]), outcome].join("\n");
}

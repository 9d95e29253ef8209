import type { CandidateView, EpisodeOutcome, EpisodeStepResult } from "../../environment-types";
import type { LocalEpisode } from "../../interfaces";
import type { ToolCall } from "../../types";
import { indexMentions, listCandidates, listFlags, type MentionIndex } from "./candidates";
import { callKey, createKnowledge, observe, type Knowledge } from "./knowledge";
import type { CompiledTask } from "./spec";
import {
  createState,
  listEffects,
  normalizeAnswer,
  subtractEffects,
  type WorldState,
} from "./state";
import { executeTool, MUTATING_TOOLS } from "./tools";

/**
 * ToolWorld's reward: 1 for success; for a failed episode, this × the share of the requested
 * changes it made — and 0 if it made any change the task did not ask for. Success stays strict
 * and all-or-nothing. The partial credit gives GRPO a gradient on long tasks before they are ever
 * fully solved (e.g. "message everyone in Lyon except Mina" is a trap no sampled group escapes with
 * binary reward), and ranks harm below incomplete work. 0.3 was chosen on the dev set
 * (0.15 / 0.3 / 0.5 compared in scripts/tune-engine.ts).
 */
export const PARTIAL_CREDIT = 0.3;

const mentionCache = new WeakMap<CompiledTask, MentionIndex>();

function mentionsOf(compiled: CompiledTask): MentionIndex {
  let index = mentionCache.get(compiled);
  if (!index) {
    index = indexMentions(compiled.annotation.mentions);
    mentionCache.set(compiled, index);
  }
  return index;
}

/**
 * One attempt at a ToolWorld task. Any tool call is accepted and schema-checked (so an LLM agent
 * can drive it); the candidate view is an extra for the builtin policy.
 */
export class ToolWorldEpisode implements LocalEpisode {
  readonly maxSteps: number;
  private readonly state: WorldState;
  private readonly knowledge: Knowledge = createKnowledge();
  private readonly mentions: MentionIndex;
  private steps = 0;
  private finished = false;
  private answer: string | null = null;
  private cachedView: CandidateView | null = null;

  constructor(private readonly compiled: CompiledTask) {
    this.maxSteps = compiled.spec.maxSteps;
    this.state = createState(compiled.indexed);
    this.mentions = mentionsOf(compiled);
  }

  get stepIndex(): number {
    return this.steps;
  }

  get isDone(): boolean {
    return this.finished || this.steps >= this.maxSteps;
  }

  view(): CandidateView {
    if (!this.cachedView) {
      this.cachedView = {
        words: this.compiled.annotation.words,
        flags: listFlags(this.mentions, this.knowledge),
        previousTool: this.knowledge.previousTool,
        candidates: listCandidates(this.mentions, this.knowledge),
      };
    }
    return this.cachedView;
  }

  stepSync(call: ToolCall): EpisodeStepResult {
    if (this.isDone) {
      return { observation: { error: "episode is over" }, isError: true, isDone: true };
    }
    this.steps += 1;
    this.cachedView = null;
    const result = executeTool(this.state, this.compiled.indexed, call);
    this.knowledge.previousTool = call.tool;
    this.knowledge.calls.add(callKey(call));
    if (!result.isError) {
      if (MUTATING_TOOLS.has(call.tool)) this.knowledge.mutations += 1;
      const indexed = this.compiled.indexed;
      observe(
        this.knowledge,
        {
          contact: (id) => indexed.contactsById.get(id),
          file: (id) => indexed.filesById.get(id),
          transactions: (id) => indexed.transactionsByContact.get(id) ?? [],
        },
        call,
        result.observation,
      );
    }
    if (result.isFinish) {
      this.finished = true;
      const answer = call.arguments.answer;
      this.answer = typeof answer === "string" ? answer : null;
    }
    return { observation: result.observation, isError: result.isError, isDone: this.isDone };
  }

  /** Strict checker: exact expected effects (nothing extra, nothing missing), right answer, finished. */
  scoreSync(): EpisodeOutcome {
    const effects = listEffects(this.state);
    const expected = this.compiled.expectedEffects;
    const extra = subtractEffects(effects, expected);
    const missing = subtractEffects(expected, effects);
    const wanted = this.compiled.spec.expect.answer;
    const isAnswerRight =
      wanted === null ||
      (this.answer !== null && normalizeAnswer(this.answer) === normalizeAnswer(wanted));
    let failure: string | null = null;
    if (!this.finished) failure = "did not finish within the step limit";
    else if (extra.length > 0) failure = `side effects: ${extra.join(", ")}`;
    else if (missing.length > 0) failure = `missing: ${missing.join(", ")}`;
    else if (!isAnswerRight) failure = `wrong answer: ${this.answer ?? "(none)"}`;
    const success = failure === null;
    const achieved = expected.length - missing.length;
    const progress = extra.length === 0 && expected.length > 0 ? achieved / expected.length : 0;
    return {
      success,
      reward: success ? 1 : PARTIAL_CREDIT * progress,
      sideEffect: extra.length > 0,
      answer: this.answer,
      failure,
    };
  }
}

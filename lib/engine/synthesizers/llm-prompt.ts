/**
 * The LLM synthesizer's prompt: a template with `{{placeholder}}` slots filled per candidate. The
 * template is part of a run's config (editable on the run's config page); only the placeholders
 * below exist, and a template naming any other is refused when the config is parsed.
 */

export const PROMPT_PLACEHOLDERS = {
  tools: "the environment's tools: name, description and JSON-schema parameters",
  skills: "the environment's skills with their descriptions and levels",
  signal: "the signal: kind, score, skill, level and the signal's details as JSON",
  signal_kind: 'the signal kind alone: "forgetting", "boundary" or "rare"',
  source_task: "the task the signal points at: instruction, skill, level (or a note when none)",
  source_spec: "the source task's environment spec (world, reference, checker) as JSON",
  trajectory: "the failed or uncertain attempt, step by step, with its outcome (or a note)",
  relations: "what the relation field may say and what each value means",
} as const;

export type PromptPlaceholder = keyof typeof PROMPT_PLACEHOLDERS;
export type PromptValues = Record<PromptPlaceholder, string>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Placeholder names a template uses, in first-use order. */
export function placeholdersIn(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!names.includes(match[1]!)) names.push(match[1]!);
  }
  return names;
}

export function unknownPlaceholders(template: string): string[] {
  return placeholdersIn(template).filter((name) => !Object.hasOwn(PROMPT_PLACEHOLDERS, name));
}

/** Fills every placeholder; throws on unknown ones (parsed configs never have any). */
export function renderPrompt(template: string, values: PromptValues): string {
  const unknown = unknownPlaceholders(template);
  if (unknown.length > 0) {
    throw new Error(`unknown placeholder${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}`);
  }
  // One pass, so a value that happens to contain "{{…}}" is never expanded again.
  return template.replace(PLACEHOLDER, (_, name: string) => values[name as PromptPlaceholder]);
}

export const DEFAULT_PROMPT_TEMPLATE = `You write training tasks for a tool-using agent that is learning in a simulated environment.
A curriculum signal says where the agent needs practice. Write ONE new task that targets it.

## Environment tools
{{tools}}

## Skills and levels
{{skills}}

## Signal: {{signal_kind}}
{{signal}}

## Source task
{{source_task}}

Its environment spec (world, reference solution, checker):
{{source_spec}}

## The agent's attempt
{{trajectory}}

## What to write
- instruction: what a user would ask, in plain words, solvable with the tools above.
- skill and level: one of the skills and levels listed.
- relation to the source task: {{relations}}
- spec_json: the environment spec of your task as a JSON string, in the same format as the
  source spec (reuse its world and change what the task needs).
- reference: the tool calls that solve the task, in order, ending with the answer tool; each
  call's arguments_json is a JSON object string that satisfies the tool's parameters.
- expected: the final answer the checker wants (null when the task asks for none) and the exact
  world changes the reference makes, in the effect vocabulary of the source spec.
Your reference is executed in the environment: a task whose reference does not pass its own
checker, or that can be passed by answering at once, is thrown away.`;

import { describe, expect, it } from "vitest";
import { parseRunConfig, RunConfigSchema } from "../../validations/run-config";
import {
  DEFAULT_PROMPT_TEMPLATE,
  placeholdersIn,
  PROMPT_PLACEHOLDERS,
  renderPrompt,
  unknownPlaceholders,
  type PromptValues,
} from "./llm-prompt";

const values = Object.fromEntries(
  Object.keys(PROMPT_PLACEHOLDERS).map((name) => [name, `<${name}>`]),
) as PromptValues;

describe("prompt templates", () => {
  it("the default template uses every placeholder and nothing else", () => {
    expect(unknownPlaceholders(DEFAULT_PROMPT_TEMPLATE)).toEqual([]);
    expect([...placeholdersIn(DEFAULT_PROMPT_TEMPLATE)].sort()).toEqual(
      Object.keys(PROMPT_PLACEHOLDERS).sort(),
    );
  });

  it("fills placeholders, with or without inner spaces, every time they occur", () => {
    expect(renderPrompt("{{signal_kind}} / {{ signal_kind }} / {{tools}}", values)).toBe(
      "<signal_kind> / <signal_kind> / <tools>",
    );
  });

  it("never expands a placeholder that arrives inside a value", () => {
    const sneaky = { ...values, source_task: "say {{tools}}" };
    expect(renderPrompt("{{source_task}}", sneaky)).toBe("say {{tools}}");
  });

  it("names unknown placeholders, once each, in order", () => {
    expect(unknownPlaceholders("{{tool}} {{signal}} {{Tools}} {{tool}}")).toEqual([
      "tool",
      "Tools",
    ]);
    expect(() => renderPrompt("{{trajectories}}", values)).toThrow(
      "unknown placeholder: trajectories",
    );
    // Single braces and unclosed ones are plain text.
    expect(renderPrompt("{tools} {{tools", values)).toBe("{tools} {{tools");
  });
});

describe("run config synthesizer", () => {
  const llm = { kind: "llm", baseUrl: "http://localhost:8000/v1", model: "qwen" };

  it('old "builtin" configs still parse, and an LLM synthesizer gets the default template', () => {
    expect(parseRunConfig({}).synthesizer).toBe("builtin");
    expect(parseRunConfig({ synthesizer: "builtin" }).synthesizer).toBe("builtin");
    expect(parseRunConfig({ synthesizer: llm }).synthesizer).toEqual({
      ...llm,
      promptTemplate: DEFAULT_PROMPT_TEMPLATE,
      concurrency: 4,
      timeoutMs: 60_000,
      retries: 3,
      sendContext: false,
    });
  });

  it("bad synthesizer configs get errors naming the problem", () => {
    const messages = (input: unknown) => {
      const result = RunConfigSchema.safeParse({ synthesizer: input });
      return result.success
        ? []
        : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(messages({ ...llm, promptTemplate: "Use {{tools}} and {{nope}} and {{bad}}" })).toEqual([
      `synthesizer.promptTemplate: unknown placeholders {{nope}}, {{bad}} (known: ${Object.keys(PROMPT_PLACEHOLDERS).join(", ")})`,
    ]);
    expect(
      parseRunConfig({ synthesizer: { ...llm, promptTemplate: " {{tools}}\r\n\r\nGo.\r\n" } })
        .synthesizer,
    ).toMatchObject({ promptTemplate: "{{tools}}\n\nGo." });
    expect(messages({ ...llm, promptTemplate: "   " })).toEqual([
      "synthesizer.promptTemplate: the prompt template cannot be empty",
    ]);
    expect(messages({ ...llm, baseUrl: "ftp://x" })).toEqual([
      "synthesizer.baseUrl: synthesizer.baseUrl must be an http(s) URL",
    ]);
    expect(messages({ ...llm, model: "" })).toEqual([
      "synthesizer.model: synthesizer.model is required (the served model name)",
    ]);
    expect(messages("gpt")).toEqual([
      'synthesizer: synthesizer must be "builtin" or { kind: "llm", baseUrl, model, … }',
    ]);
  });
});

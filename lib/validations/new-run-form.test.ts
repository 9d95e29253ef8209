import { describe, expect, it } from "vitest";
import { DEFAULT_PROMPT_TEMPLATE } from "../engine/synthesizers/llm-prompt";
import { NewRunSchema, newRunFieldOf, newRunInputOf } from "./new-run-form";

// What a browser submits for the form with nothing in Advanced changed.
const basics = {
  name: "form run",
  mode: "coevolve",
  seed: "3",
  tasksPerRound: "6",
  groupSize: "2",
  synthesisBudget: "6",
  replayFraction: "0.25",
  reviewMode: "auto",
  agentKind: "builtin",
  synthesizerKind: "builtin",
  environmentKind: "toolworld",
};

function parse(fields: Record<string, string>) {
  return NewRunSchema.safeParse(newRunInputOf({ ...basics, ...fields }));
}

/** Field name → messages, the way the action reports them. */
function fieldErrorsOf(fields: Record<string, string>) {
  const result = parse(fields);
  if (result.success) throw new Error("expected the form to be refused");
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    (errors[newRunFieldOf(issue.path)] ??= []).push(issue.message);
  }
  return errors;
}

describe("New run form → run config", () => {
  it("keeps every builtin when Advanced is untouched", () => {
    const result = parse({});
    expect(result.success && result.data).toMatchObject({
      name: "form run",
      config: {
        seed: 3,
        tasksPerRound: 6,
        agent: "builtin",
        synthesizer: "builtin",
        environment: "toolworld",
      },
    });
  });

  it("builds an LLM synthesizer from its fields, with the schema's defaults for the rest", () => {
    const result = parse({
      synthesizerKind: "llm",
      synthesizerBaseUrl: " http://127.0.0.1:3000/api/openai/v1 ",
      synthesizerModel: "synth-model",
      synthesizerConnection: "",
      synthesizerSendContext: "on",
    });
    expect(result.success && result.data.config.synthesizer).toEqual({
      kind: "llm",
      baseUrl: "http://127.0.0.1:3000/api/openai/v1",
      model: "synth-model",
      promptTemplate: DEFAULT_PROMPT_TEMPLATE,
      concurrency: 4,
      timeoutMs: 60_000,
      retries: 3,
      sendContext: true,
    });
  });

  it("names the connection and leaves sendContext off when unchecked", () => {
    const result = parse({
      synthesizerKind: "llm",
      synthesizerBaseUrl: "https://api.example.com/v1",
      synthesizerModel: "gpt-x",
      synthesizerConnection: "openai-prod",
    });
    expect(result.success && result.data.config.synthesizer).toMatchObject({
      connection: "openai-prod",
      sendContext: false,
    });
  });

  it("puts each missing or bad synthesizer field's error beside that field", () => {
    expect(fieldErrorsOf({ synthesizerKind: "llm" })).toEqual({
      synthesizerBaseUrl: [expect.stringMatching(/synthesizer\.baseUrl is required/)],
      synthesizerModel: [expect.stringMatching(/synthesizer\.model is required/)],
    });
    expect(
      fieldErrorsOf({
        synthesizerKind: "llm",
        synthesizerBaseUrl: "ftp://example.com/v1",
        synthesizerModel: "m",
        synthesizerConnection: "not a name!",
      }),
    ).toEqual({
      synthesizerBaseUrl: [expect.stringMatching(/synthesizer\.baseUrl must be an http\(s\) URL/)],
      synthesizerConnection: [expect.any(String)],
    });
  });

  it("maps agent and environment errors the same way, and an unknown kind beside its select", () => {
    expect(fieldErrorsOf({ agentKind: "openai", environmentKind: "http" })).toEqual({
      agentBaseUrl: [expect.stringMatching(/agent\.baseUrl is required/)],
      agentModel: [expect.stringMatching(/agent\.model is required/)],
      environmentBaseUrl: [expect.stringMatching(/environment\.baseUrl is required/)],
    });
    expect(Object.keys(fieldErrorsOf({ synthesizerKind: "magic" }))).toEqual(["synthesizerKind"]);
  });

  it("keeps the other fields' mapping", () => {
    expect(newRunFieldOf(["name"])).toBe("name");
    expect(newRunFieldOf(["config", "review", "mode"])).toBe("reviewMode");
    expect(newRunFieldOf(["config", "groupSize"])).toBe("groupSize");
    expect(newRunFieldOf(["config", "environment", "timeoutMs"])).toBe("environmentKind");
  });
});

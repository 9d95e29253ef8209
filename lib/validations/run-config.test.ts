import { describe, expect, it } from "vitest";
import {
  agentLabel,
  environmentLabel,
  externalTrainerOf,
  httpEnvironmentOf,
  openAiAgentOf,
  parseRunConfig,
  RunConfigSchema,
} from "./run-config";

const issuesOf = (input: unknown) => {
  const result = RunConfigSchema.safeParse(input);
  if (result.success) throw new Error("expected the config to be refused");
  return result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("RunConfig trainer", () => {
  it("keeps the builtin trainer as the default and as a stored value", () => {
    expect(parseRunConfig({}).trainer).toBe("builtin-grpo");
    expect(parseRunConfig({ trainer: "builtin-grpo" }).trainer).toBe("builtin-grpo");
    expect(externalTrainerOf(parseRunConfig({}))).toBeNull();
  });

  it("accepts an external command or webhook, with defaults", () => {
    const command = parseRunConfig({
      trainer: { kind: "external", command: ["ray", "job", "submit", "--", "python", "train.py"] },
    });
    expect(externalTrainerOf(command)).toEqual({
      kind: "external",
      command: ["ray", "job", "submit", "--", "python", "train.py"],
      timeoutMinutes: 60,
      dataFormat: "grpo-jsonl",
    });
    const webhook = parseRunConfig({
      trainer: {
        kind: "external",
        webhook: { url: "https://trainer.example.com/jobs", connection: "ray-prod" },
        timeoutMinutes: 0.5,
      },
    });
    expect(externalTrainerOf(webhook)?.webhook).toEqual({
      url: "https://trainer.example.com/jobs",
      connection: "ray-prod",
    });
  });

  it("refuses malformed trainers with messages that say what to fix", () => {
    expect(issuesOf({ trainer: "verl" })).toEqual([
      'trainer: trainer must be "builtin-grpo" or { kind: "external", command | webhook, … }',
    ]);
    const neither = JSON.stringify(issuesOf({ trainer: { kind: "external" } }));
    expect(neither).toContain("an external trainer needs exactly one of command or webhook");
    const both = JSON.stringify(
      issuesOf({
        trainer: { kind: "external", command: ["x"], webhook: { url: "https://a.example" } },
      }),
    );
    expect(both).toContain("exactly one of command or webhook");
    expect(JSON.stringify(issuesOf({ trainer: { kind: "external", command: [] } }))).toContain(
      "command needs at least the program to run",
    );
    expect(
      JSON.stringify(issuesOf({ trainer: { kind: "external", webhook: { url: "ftp://x" } } })),
    ).toContain("webhook.url must be an http(s) URL");
    expect(
      JSON.stringify(
        issuesOf({ trainer: { kind: "external", command: ["x"], timeoutMinutes: 0 } }),
      ),
    ).toContain("timeoutMinutes must be more than 0");
  });
});

describe("RunConfig agent and environment", () => {
  it("still reads configs stored before they could name endpoints", () => {
    const stored = parseRunConfig({ agent: "builtin", environment: "toolworld" });
    expect(stored.agent).toBe("builtin");
    expect(stored.environment).toBe("toolworld");
    expect(openAiAgentOf(stored)).toBeNull();
    expect(httpEnvironmentOf(stored)).toBeNull();
    expect([agentLabel(stored), environmentLabel(stored)]).toEqual(["builtin", "toolworld"]);
  });

  it("fills an OpenAI-compatible agent's limits and an HTTP environment with defaults", () => {
    const config = parseRunConfig({
      agent: { kind: "openai", baseUrl: "http://gpu:8000/v1", model: "qwen", connection: "vllm" },
      environment: { kind: "http", baseUrl: "https://env.internal", connection: "appworld" },
    });
    expect(openAiAgentOf(config)).toEqual({
      kind: "openai",
      baseUrl: "http://gpu:8000/v1",
      model: "qwen",
      connection: "vllm",
      concurrency: 4,
      timeoutMs: 60_000,
      retries: 3,
      requestLogprobs: false,
      topLogprobs: 0,
      sendTaskId: false,
    });
    expect(httpEnvironmentOf(config)).toEqual({
      kind: "http",
      baseUrl: "https://env.internal",
      connection: "appworld",
    });
    expect([agentLabel(config), environmentLabel(config)]).toEqual(["openai", "http"]);
  });

  it("says which field is wrong", () => {
    expect(issuesOf({ agent: "gpt-4" })).toEqual([
      'agent: agent must be "builtin" or { kind: "openai", baseUrl, model, … }',
    ]);
    expect(issuesOf({ agent: { kind: "openai" } })).toEqual([
      "agent.baseUrl: agent.baseUrl is required",
      "agent.model: agent.model is required (the served model name)",
    ]);
    expect(
      issuesOf({ agent: { kind: "openai", baseUrl: "file:///etc", model: "m", concurrency: 0 } }),
    ).toEqual([
      "agent.baseUrl: agent.baseUrl must be an http(s) URL",
      "agent.concurrency: agent.concurrency must be at least 1",
    ]);
    expect(issuesOf({ environment: { kind: "http" } })).toEqual([
      "environment.baseUrl: environment.baseUrl is required",
    ]);
    expect(
      issuesOf({ environment: { kind: "http", baseUrl: "http://e", connection: "no spaces" } }),
    ).toEqual([
      "environment.connection: Use 1–63 letters, digits, dots, dashes or underscores, starting with a letter or digit",
    ]);
  });

  it("has no place for an API key", () => {
    const config = parseRunConfig({
      agent: { kind: "openai", baseUrl: "http://h/v1", model: "m", apiKey: "sk-secret" },
    });
    expect(JSON.stringify(config)).not.toContain("sk-secret");
  });
});

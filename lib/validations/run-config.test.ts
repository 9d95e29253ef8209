import { describe, expect, it } from "vitest";
import { externalTrainerOf, parseRunConfig, RunConfigSchema } from "./run-config";

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

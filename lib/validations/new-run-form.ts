import { z } from "zod";
import { RunConfigSchema } from "./run-config";

/**
 * The New run form's flat fields shaped as a run config, and each config issue mapped back to the
 * field it belongs to. Kept apart from the server action so it can be tested without Next.
 */

export const NewRunSchema = z.object({
  name: z.string().trim().min(1, "Enter a name for the run").max(120),
  config: RunConfigSchema,
});

/** An empty or non-numeric field becomes NaN, so zod says "Enter a number" instead of using a default. */
function numberField(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value.trim() === "" ? Number.NaN : Number(value);
}

/** An empty form field means "not given". */
function textField(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function checkbox(value: unknown): boolean {
  return value === "on" || value === true;
}

/** The endpoint fields shared by the agent and the synthesizer, named `<prefix>BaseUrl` … */
function openAiEndpointOf(raw: Record<string, unknown>, prefix: "agent" | "synthesizer") {
  return {
    baseUrl: textField(raw[`${prefix}BaseUrl`]),
    model: textField(raw[`${prefix}Model`]),
    connection: textField(raw[`${prefix}Connection`]),
  };
}

/** The Advanced section's agent, synthesizer and environment fields, shaped as the run config. */
function endpointsOf(raw: Record<string, unknown>) {
  return {
    agent:
      raw.agentKind === "openai"
        ? {
            kind: "openai",
            ...openAiEndpointOf(raw, "agent"),
            sendTaskId: checkbox(raw.agentSendTaskId),
          }
        : (textField(raw.agentKind) ?? "builtin"),
    synthesizer:
      raw.synthesizerKind === "llm"
        ? {
            kind: "llm",
            ...openAiEndpointOf(raw, "synthesizer"),
            sendContext: checkbox(raw.synthesizerSendContext),
          }
        : (textField(raw.synthesizerKind) ?? "builtin"),
    environment:
      raw.environmentKind === "http"
        ? {
            kind: "http",
            baseUrl: textField(raw.environmentBaseUrl),
            connection: textField(raw.environmentConnection),
          }
        : (textField(raw.environmentKind) ?? "toolworld"),
  };
}

/** The form's fields, shaped as NewRunSchema's input; everything not on the form takes its default. */
export function newRunInputOf(raw: Record<string, unknown>) {
  return {
    name: raw.name ?? "",
    config: {
      mode: raw.mode,
      seed: numberField(raw.seed),
      tasksPerRound: numberField(raw.tasksPerRound),
      groupSize: numberField(raw.groupSize),
      synthesisBudget: numberField(raw.synthesisBudget),
      replayFraction: numberField(raw.replayFraction),
      review: { mode: raw.reviewMode },
      ...endpointsOf(raw),
    },
  };
}

const ENDPOINTS = ["agent", "synthesizer", "environment"] as const;
const ENDPOINT_PARTS = ["baseUrl", "model", "connection"] as const;

/**
 * The form field a NewRunSchema issue belongs to: `config.agent.baseUrl` → `agentBaseUrl`; an
 * endpoint issue without a field of its own (a bad kind) goes beside the kind select.
 */
export function newRunFieldOf(path: readonly PropertyKey[]): string {
  if (path[0] !== "config") return path.map(String).join(".");
  const [, section, part] = path;
  const endpoint = ENDPOINTS.find((name) => name === section);
  if (endpoint) {
    const field = ENDPOINT_PARTS.find((name) => name === part);
    return field ? `${endpoint}${field[0]!.toUpperCase()}${field.slice(1)}` : `${endpoint}Kind`;
  }
  return section === "review" ? "reviewMode" : String(section ?? "form");
}

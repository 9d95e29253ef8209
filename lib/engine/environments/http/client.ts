/**
 * An `Environment` backed by a coevolve-env/1 server. The network is reached only through the
 * injected `fetch` (default `globalThis.fetch`), so lib/engine stays free of node-only imports.
 * `describe()` and `tools()` are synchronous in the interface, so the description is fetched once
 * at connect time and cached.
 */
import type { z } from "zod";
import type { CandidateView, EpisodeOutcome, EpisodeStepResult } from "../../environment-types";
import type {
  Environment,
  EpisodeSession,
  PortableTaskResult,
  ValidationResult,
} from "../../interfaces";
import type { Task, ToolCall } from "../../types";
import {
  candidatesResponseSchema,
  checkShape,
  closeResponseSchema,
  describeResponseSchema,
  errorResponseSchema,
  openEpisodeResponseSchema,
  portableTaskResponseSchema,
  PROTOCOL_VERSION,
  referenceSolutionResponseSchema,
  scoreResponseSchema,
  stepResponseSchema,
  taskResponseSchema,
  validateResponseSchema,
  viewResponseSchema,
  type CandidatesResponse,
  type DescribeResponse,
  type OpenEpisodeResponse,
  type ReferenceSolutionResponse,
  type TaskRequest,
  type TaskResponse,
  type ValidateResponse,
} from "./protocol";

export type HttpEnvironmentOptions = {
  /** Where the protocol's paths live, e.g. "http://localhost:8765" or ".../api/environments/toolworld". */
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  /** Per request, attempts of a retried call each get the full budget. Default 30 s. */
  timeoutMs?: number;
  /** Sent with every request (e.g. an Authorization header for a hosted wrapper). */
  headers?: Record<string, string>;
  /** Extra attempts for idempotent calls (describe, generate, reference solution). Default 2. */
  retries?: number;
  /** First backoff delay; doubles per attempt. Default 200 ms. */
  retryDelayMs?: number;
};

export type HttpEnvironment = Environment & {
  readonly baseUrl: string;
  /** What the server said about itself at connect time. */
  readonly description: DescribeResponse;
  /**
   * Server-side execution validation (POST /validate), when the server offers it: the same checks
   * the engine's execution validator runs client-side over step/score, in one round trip.
   */
  validateOnServer(request: {
    candidates: Task[];
    knownFingerprints: readonly string[];
  }): Promise<ValidationResult>;
};

/** Which endpoint failed and how: the HTTP status and the server's error code, when there was one. */
export class HttpEnvironmentError extends Error {
  constructor(
    readonly endpoint: string,
    readonly status: number | null,
    readonly code: string,
    message: string,
  ) {
    super(`HTTP environment ${endpoint}: ${message}`);
    this.name = "HttpEnvironmentError";
  }
}

type Call = {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body?: unknown;
  schema: z.ZodType;
  idempotent: boolean;
};

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message} (${typeof code === "string" ? `${code}: ` : ""}${cause.message})`;
  }
  return error.message;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function createTransport(options: HttpEnvironmentOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 200;

  /** One request; every failure becomes an HttpEnvironmentError naming the endpoint. */
  async function attempt<T>(call: Call, endpoint: string): Promise<T> {
    let response: Response;
    let text: string;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await doFetch(`${base}${call.path}`, {
        method: call.method,
        headers: {
          accept: "application/json",
          ...(call.body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      // Depending on when the deadline hits, fetch rejects with the timeout itself or wraps it.
      if (signal.aborted) {
        throw new HttpEnvironmentError(
          endpoint,
          null,
          "timeout",
          `timed out after ${timeoutMs} ms`,
        );
      }
      throw new HttpEnvironmentError(
        endpoint,
        null,
        "unreachable",
        `cannot reach ${base}: ${networkReason(error)}`,
      );
    }
    let payload: unknown;
    try {
      payload = text === "" ? undefined : (JSON.parse(text) as unknown);
    } catch {
      const snippet = text.slice(0, 120);
      throw new HttpEnvironmentError(
        endpoint,
        response.status,
        "bad_response",
        `${response.status} with a body that is not JSON: ${JSON.stringify(snippet)}`,
      );
    }
    if (!response.ok) {
      const envelope = errorResponseSchema.safeParse(payload);
      const code = envelope.success ? envelope.data.error.code : "http_error";
      const message = envelope.success ? envelope.data.error.message : response.statusText;
      throw new HttpEnvironmentError(
        endpoint,
        response.status,
        code,
        `${response.status} ${code}: ${message}`,
      );
    }
    const checked = checkShape<T>(call.schema, payload);
    if (!checked.ok) {
      throw new HttpEnvironmentError(
        endpoint,
        response.status,
        "bad_response",
        `the response does not follow ${PROTOCOL_VERSION}: ${checked.message}`,
      );
    }
    return checked.value;
  }

  /**
   * Retries failures another attempt could fix: any call the server refused with 429 (it did
   * nothing, e.g. its episode cap was full while other workers' rollouts ran), and idempotent
   * calls after a 5xx or a network error.
   */
  return async function send<T>(call: Call): Promise<T> {
    const endpoint = `${call.method} ${call.path}`;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt<T>(call, endpoint);
      } catch (error) {
        const isHttpError = error instanceof HttpEnvironmentError;
        const isRefused = isHttpError && error.status === 429;
        const isTransient = isHttpError && (error.status === null || error.status >= 500);
        if (!(isRefused || (call.idempotent && isTransient)) || tries >= retries) throw error;
        await sleep(retryDelayMs * 2 ** tries);
      }
    }
  };
}

/** Connects to a coevolve-env/1 server and returns it as an Environment the engine can run over. */
export async function connectHttpEnvironment(
  options: HttpEnvironmentOptions,
): Promise<HttpEnvironment> {
  const send = createTransport(options);
  const description = await send<DescribeResponse>({
    method: "GET",
    path: "/describe",
    schema: describeResponseSchema,
    idempotent: true,
  });

  async function openEpisode(task: Task): Promise<EpisodeSession> {
    const opened = await send<OpenEpisodeResponse>({
      method: "POST",
      path: "/episodes",
      body: { task },
      schema: openEpisodeResponseSchema,
      idempotent: false,
    });
    const at = `/episodes/${encodeURIComponent(opened.episodeId)}`;
    const session: EpisodeSession = {
      instruction: opened.instruction,
      tools: opened.tools ?? description.tools,
      maxSteps: opened.maxSteps,
      step: (call: ToolCall) =>
        send<EpisodeStepResult>({
          method: "POST",
          path: `${at}/step`,
          body: call,
          schema: stepResponseSchema,
          idempotent: false,
        }),
      score: () =>
        send<EpisodeOutcome>({
          method: "POST",
          path: `${at}/score`,
          schema: scoreResponseSchema,
          idempotent: false,
        }),
      close: async () => {
        await send({
          method: "DELETE",
          path: at,
          schema: closeResponseSchema,
          idempotent: false,
        });
      },
    };
    if (opened.capabilities.candidates) {
      session.listCandidates = async () =>
        (
          await send<CandidatesResponse>({
            method: "GET",
            path: `${at}/candidates`,
            schema: candidatesResponseSchema,
            idempotent: false,
          })
        ).candidates;
    }
    if (opened.capabilities.view) {
      session.view = () =>
        send<CandidateView>({
          method: "GET",
          path: `${at}/view`,
          schema: viewResponseSchema,
          idempotent: false,
        });
    }
    return session;
  }

  return {
    id: description.id,
    baseUrl: options.baseUrl,
    description,
    describe: () => description.catalog,
    tools: () => description.tools,
    generateTask: async (request: TaskRequest) =>
      (
        await send<TaskResponse>({
          method: "POST",
          path: "/tasks/generate",
          body: request,
          schema: taskResponseSchema,
          idempotent: true,
        })
      ).task,
    // Only when the server says it rebuilds portable tasks: callers check for the method.
    ...(description.capabilities.portable
      ? {
          taskFromPortable: (task, context) =>
            send<PortableTaskResult>({
              method: "POST",
              path: "/tasks/from-portable",
              body: { task, context },
              schema: portableTaskResponseSchema,
              idempotent: true,
            }),
        }
      : {}),
    referenceSolution: async (task: Task) =>
      (
        await send<ReferenceSolutionResponse>({
          method: "POST",
          path: "/tasks/reference-solution",
          body: { task },
          schema: referenceSolutionResponseSchema,
          idempotent: true,
        })
      ).calls,
    openEpisode,
    validateOnServer: async (request) => {
      if (!description.capabilities.validate) {
        throw new HttpEnvironmentError(
          "POST /validate",
          null,
          "unsupported",
          "this server does not validate tasks; use the engine's execution validator",
        );
      }
      return send<ValidateResponse>({
        method: "POST",
        path: "/validate",
        body: { candidates: request.candidates, knownFingerprints: request.knownFingerprints },
        schema: validateResponseSchema,
        idempotent: false,
      });
    },
  };
}

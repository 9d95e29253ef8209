/**
 * Serves any `Environment` over the coevolve-env/1 protocol as a web-standard
 * `(Request) => Promise<Response>` handler, so the same code mounts in a Next route handler and in
 * a plain node:http server. Episodes are server-side sessions with ids; idle ones expire and the
 * number of open ones is capped. Bad input gets 400/422 naming the field; nothing answers with a
 * stack trace.
 */
import type { z } from "zod";
import { hasBearer } from "../../bearer";
import type {
  Environment,
  EpisodeSession,
  PortableTask,
  PortableTaskContext,
} from "../../interfaces";
import type { Task, ToolCall } from "../../types";
import { createExecutionValidator } from "../../validators/execution-validator";
import {
  checkShape,
  portableTaskBodySchema,
  PROTOCOL_VERSION,
  stepBodySchema,
  taskBodySchema,
  taskRequestSchema,
  validateBodySchema,
  type DescribeResponse,
  type ErrorCode,
  type OpenEpisodeResponse,
  type TaskRequest,
  type ValidateBody,
} from "./protocol";

export type EnvironmentHandlerOptions = {
  /** Path prefix the handler is mounted under ("/api/environments/toolworld"); default none. */
  basePath?: string;
  /** Open episodes allowed at once; opening one more answers 429. Default 256. */
  maxSessions?: number;
  /** An episode untouched this long is closed and forgotten. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** Clock for idle expiry only (never affects results); injectable for tests. */
  now?: () => number;
  /** Episode ids; default random UUIDs (ids never influence results). */
  newId?: () => string;
  /** Sees failures of the server itself (answered as a bare 500), e.g. to log them. */
  onError?: (error: unknown) => void;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
};

export type EnvironmentHandler = ((request: Request) => Promise<Response>) & {
  /** Episodes currently open (expired ones are swept first). */
  openSessions(): number;
  /** Closes every open episode, e.g. on shutdown. */
  closeAll(): Promise<void>;
};

type Session = { episode: EpisodeSession; lastUsed: number };

class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

function reply(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function errorReply(error: ProtocolError): Response {
  return reply(
    { error: { code: error.code, message: error.message } },
    error.status,
    error.headers,
  );
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") throw new ProtocolError(400, "bad_json", "request body is empty");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(400, "bad_json", `request body is not valid JSON: ${detail}`);
  }
}

async function readBody<T>(request: Request, schema: z.ZodType): Promise<T> {
  const checked = checkShape<T>(schema, await readJson(request));
  if (!checked.ok) throw new ProtocolError(422, "invalid_request", checked.message);
  return checked.value;
}

/** An environment that throws on the input it was given rejected that input: 422, message kept. */
async function fromEnvironment<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(422, "environment_rejected", `${what}: ${message}`);
  }
}

function allow(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) {
    throw new ProtocolError(
      405,
      "method_not_allowed",
      `${method} is not allowed here; use ${allowed.join(" or ")}`,
      { allow: allowed.join(", ") },
    );
  }
}

export function createEnvironmentHandler(
  environment: Environment,
  options: EnvironmentHandlerOptions = {},
): EnvironmentHandler {
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const maxSessions = options.maxSessions ?? 256;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const now = options.now ?? (() => Date.now());
  const newId = options.newId ?? (() => `ep_${globalThis.crypto.randomUUID()}`);
  const sessions = new Map<string, Session>();
  const validator = createExecutionValidator();
  const envToolsJson = JSON.stringify(environment.tools());

  function sweep(): void {
    const cutoff = now() - idleTimeoutMs;
    for (const [id, session] of sessions) {
      if (session.lastUsed <= cutoff) {
        sessions.delete(id);
        void session.episode.close?.().catch(() => undefined);
      }
    }
  }

  function sessionFor(id: string): Session {
    const session = sessions.get(id);
    if (!session) {
      throw new ProtocolError(
        404,
        "not_found",
        `episode ${id} is not open (never opened, closed, or expired after ${idleTimeoutMs} ms idle)`,
      );
    }
    session.lastUsed = now();
    return session;
  }

  function describe(): DescribeResponse {
    return {
      protocol: PROTOCOL_VERSION,
      id: environment.id,
      catalog: environment.describe(),
      tools: environment.tools(),
      capabilities: { validate: true, portable: Boolean(environment.taskFromPortable) },
      limits: { maxSessions, idleTimeoutMs },
    };
  }

  async function openEpisode(task: Task): Promise<OpenEpisodeResponse> {
    if (sessions.size >= maxSessions) {
      throw new ProtocolError(
        429,
        "too_many_sessions",
        `${sessions.size} episodes are open (limit ${maxSessions}); close finished episodes with DELETE /episodes/:id`,
        { "retry-after": "1" },
      );
    }
    const episode = await fromEnvironment("open episode", () => environment.openEpisode(task));
    const id = newId();
    sessions.set(id, { episode, lastUsed: now() });
    const response: OpenEpisodeResponse = {
      episodeId: id,
      instruction: episode.instruction,
      maxSteps: episode.maxSteps,
      capabilities: {
        candidates: typeof episode.listCandidates === "function",
        view: typeof episode.view === "function",
      },
    };
    if (JSON.stringify(episode.tools) !== envToolsJson) response.tools = episode.tools;
    return response;
  }

  async function routeEpisode(request: Request, id: string, action: string): Promise<Response> {
    const method = request.method;
    if (action === "") {
      allow(method, ["DELETE"]);
      const session = sessionFor(id);
      sessions.delete(id);
      await session.episode.close?.();
      return reply({ closed: true });
    }
    if (action === "step") {
      allow(method, ["POST"]);
      const call = await readBody<ToolCall>(request, stepBodySchema);
      const { episode } = sessionFor(id);
      return reply(await fromEnvironment("step", () => episode.step(call)));
    }
    if (action === "score") {
      allow(method, ["POST"]);
      const { episode } = sessionFor(id);
      return reply(await fromEnvironment("score", () => episode.score()));
    }
    if (action === "candidates") {
      allow(method, ["GET", "POST"]);
      const { episode } = sessionFor(id);
      if (!episode.listCandidates) {
        throw new ProtocolError(501, "unsupported", "this episode does not list candidate calls");
      }
      const list = episode.listCandidates.bind(episode);
      return reply({ candidates: await fromEnvironment("candidates", list) });
    }
    if (action === "view") {
      allow(method, ["GET", "POST"]);
      const { episode } = sessionFor(id);
      if (!episode.view) {
        throw new ProtocolError(
          501,
          "unsupported",
          "this episode does not describe its candidates",
        );
      }
      const view = episode.view.bind(episode);
      return reply(await fromEnvironment("view", view));
    }
    throw new ProtocolError(404, "not_found", `no endpoint episodes/:id/${action}`);
  }

  async function route(request: Request, path: string): Promise<Response> {
    const method = request.method;
    switch (path) {
      case "/describe":
        allow(method, ["GET"]);
        return reply(describe());
      case "/tasks/generate": {
        allow(method, ["POST"]);
        const body = await readBody<TaskRequest>(request, taskRequestSchema);
        const task = await fromEnvironment("generate task", () => environment.generateTask(body));
        return reply({ task });
      }
      case "/tasks/from-portable": {
        allow(method, ["POST"]);
        const fromPortable = environment.taskFromPortable?.bind(environment);
        if (!fromPortable) {
          throw new ProtocolError(
            501,
            "unsupported",
            "this environment cannot rebuild portable tasks",
          );
        }
        const body = await readBody<{ task: PortableTask; context: PortableTaskContext }>(
          request,
          portableTaskBodySchema,
        );
        return reply(
          await fromEnvironment("rebuild task", async () => fromPortable(body.task, body.context)),
        );
      }
      case "/tasks/reference-solution": {
        allow(method, ["POST"]);
        const { task } = await readBody<{ task: Task }>(request, taskBodySchema);
        const calls = await fromEnvironment("reference solution", () =>
          environment.referenceSolution(task),
        );
        return reply({ calls });
      }
      case "/validate": {
        allow(method, ["POST"]);
        const body = await readBody<ValidateBody>(request, validateBodySchema);
        const result = await fromEnvironment("validate", () =>
          validator.validate({
            candidates: body.candidates,
            environment,
            knownFingerprints: body.knownFingerprints ?? [],
          }),
        );
        return reply(result);
      }
      case "/episodes": {
        allow(method, ["POST"]);
        const { task } = await readBody<{ task: Task }>(request, taskBodySchema);
        return reply(await openEpisode(task), 201);
      }
    }
    const match = /^\/episodes\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (match) return routeEpisode(request, decodeURIComponent(match[1]!), match[2] ?? "");
    throw new ProtocolError(404, "not_found", `no endpoint ${path}`);
  }

  const handler = async (request: Request): Promise<Response> => {
    try {
      if (options.apiKey && !hasBearer(request, options.apiKey)) {
        throw new ProtocolError(
          401,
          "unauthorized",
          "missing or wrong API key (Authorization: Bearer …)",
        );
      }
      sweep();
      const pathname = new URL(request.url).pathname;
      if (basePath !== "" && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
        throw new ProtocolError(404, "not_found", `no endpoint ${pathname}`);
      }
      const path = pathname.slice(basePath.length).replace(/\/+$/, "") || "/";
      return await route(request, path);
    } catch (error) {
      if (error instanceof ProtocolError) return errorReply(error);
      // A bug in the server itself: say so without leaking internals.
      options.onError?.(error);
      return errorReply(new ProtocolError(500, "internal", "the environment server failed"));
    }
  };
  return Object.assign(handler, {
    openSessions: () => {
      sweep();
      return sessions.size;
    },
    closeAll: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.episode.close?.()));
    },
  });
}

import { afterEach, describe, expect, it } from "vitest";
import {
  serveFetchHandler,
  type FetchHandler,
  type ServedHandler,
} from "../../agents/openai/node-http";
import { createToolWorld } from "../toolworld";
import { connectHttpEnvironment, HttpEnvironmentError } from "./client";
import { createEnvironmentHandler } from "./server";

const request = {
  skill: "lookup",
  level: 1,
  seed: 3,
  split: "train",
  origin: "seed",
  generation: 0,
} as const;

const open: ServedHandler[] = [];
async function serve(handler: FetchHandler): Promise<ServedHandler> {
  const served = await serveFetchHandler(handler);
  open.push(served);
  return served;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A real ToolWorld server with some paths answered by `override` instead. */
function withOverride(override: (path: string, method: string) => Promise<Response> | null) {
  const real = createEnvironmentHandler(createToolWorld());
  const hits: string[] = [];
  const handler: FetchHandler = (req) => {
    const path = new URL(req.url).pathname;
    hits.push(`${req.method} ${path}`);
    return override(path, req.method) ?? real(req);
  };
  return { handler, hits };
}

async function caught(promise: Promise<unknown>): Promise<HttpEnvironmentError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpEnvironmentError);
  return error as HttpEnvironmentError;
}

describe("HTTP environment client faults", () => {
  it("a server that is down: a clear unreachable error naming the endpoint, after retries", async () => {
    const gone = await serveFetchHandler(createEnvironmentHandler(createToolWorld()));
    await gone.close();
    const error = await caught(
      connectHttpEnvironment({ baseUrl: gone.url, retries: 1, retryDelayMs: 5 }),
    );
    expect(error.code).toBe("unreachable");
    expect(error.endpoint).toBe("GET /describe");
    expect(error.message).toMatch(
      new RegExp(`^HTTP environment GET /describe: cannot reach ${gone.url}: .*ECONNREFUSED`),
    );
  });

  it("a server that stalls: a timeout error naming the endpoint", async () => {
    const { handler } = withOverride((path) =>
      path === "/tasks/generate"
        ? new Promise((resolve) => setTimeout(() => resolve(new Response("{}")), 1_500))
        : null,
    );
    const served = await serve(handler);
    const env = await connectHttpEnvironment({ baseUrl: served.url, timeoutMs: 150, retries: 0 });
    const started = performance.now();
    const error = await caught(env.generateTask(request));
    expect(performance.now() - started).toBeLessThan(1_200);
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("HTTP environment POST /tasks/generate: timed out after 150 ms");
  });

  it("500s are retried with backoff for idempotent calls, and the call succeeds when the server recovers", async () => {
    let failures = 2;
    const { handler, hits } = withOverride((path) => {
      if (path !== "/tasks/generate" || failures === 0) return null;
      failures--;
      return Promise.resolve(
        Response.json({ error: { code: "internal", message: "flaky" } }, { status: 500 }),
      );
    });
    const served = await serve(handler);
    const env = await connectHttpEnvironment({ baseUrl: served.url, retries: 2, retryDelayMs: 5 });
    const task = await env.generateTask(request);
    expect(JSON.stringify(task)).toBe(
      JSON.stringify(await createToolWorld().generateTask(request)),
    );
    expect(hits.filter((h) => h === "POST /tasks/generate")).toHaveLength(3);
  });

  it("500s that persist end in an error with the status and the server's message", async () => {
    const { handler, hits } = withOverride((path) =>
      path === "/tasks/reference-solution" || path === "/episodes"
        ? Promise.resolve(
            Response.json(
              { error: { code: "internal", message: "world crashed" } },
              { status: 500 },
            ),
          )
        : null,
    );
    const served = await serve(handler);
    const env = await connectHttpEnvironment({ baseUrl: served.url, retries: 2, retryDelayMs: 5 });
    const task = await env.generateTask(request);
    const error = await caught(env.referenceSolution(task));
    expect(error.status).toBe(500);
    expect(error.message).toBe(
      "HTTP environment POST /tasks/reference-solution: 500 internal: world crashed",
    );
    expect(hits.filter((h) => h === "POST /tasks/reference-solution")).toHaveLength(3);
    // Opening an episode is not idempotent: one attempt only.
    await caught(env.openEpisode(task));
    expect(hits.filter((h) => h === "POST /episodes")).toHaveLength(1);
  });

  it("a response that breaks the protocol is an error naming the field, not a silent bad task", async () => {
    const { handler } = withOverride((path) =>
      path === "/tasks/generate"
        ? Promise.resolve(Response.json({ task: { id: "t1" } }))
        : path === "/episodes"
          ? Promise.resolve(new Response("<html>proxy error</html>", { status: 502 }))
          : null,
    );
    const served = await serve(handler);
    const env = await connectHttpEnvironment({ baseUrl: served.url, retries: 0 });
    const error = await caught(env.generateTask(request));
    expect(error.code).toBe("bad_response");
    expect(error.message).toMatch(
      /^HTTP environment POST \/tasks\/generate: the response does not follow coevolve-env\/1: task\.fingerprint: /,
    );
    const task = await createToolWorld().generateTask(request);
    const html = await caught(env.openEpisode(task));
    expect(html.message).toBe(
      'HTTP environment POST /episodes: 502 with a body that is not JSON: "<html>proxy error</html>"',
    );
  });

  it("a server speaking another protocol version is refused at connect", async () => {
    const { handler } = withOverride((path) =>
      path === "/describe" ? Promise.resolve(Response.json({ protocol: "coevolve-env/2" })) : null,
    );
    const served = await serve(handler);
    const error = await caught(connectHttpEnvironment({ baseUrl: served.url, retries: 0 }));
    expect(error.message).toMatch(
      /GET \/describe: the response does not follow coevolve-env\/1: protocol: /,
    );
  });

  it("a full session cap is retried, then reaches the client as a 429 too_many_sessions error", async () => {
    let opens = 0;
    const handler = createEnvironmentHandler(createToolWorld(), { maxSessions: 1 });
    const served = await serve(async (request) => {
      if (request.method === "POST" && new URL(request.url).pathname === "/episodes") opens++;
      return handler(request);
    });
    const env = await connectHttpEnvironment({ baseUrl: served.url, retryDelayMs: 5, retries: 2 });
    const task = await env.generateTask(request);
    const first = await env.openEpisode(task);
    const error = await caught(env.openEpisode(task));
    expect(error.status).toBe(429);
    expect(error.code).toBe("too_many_sessions");
    // The first open, then the refused one and its two retries.
    expect(opens).toBe(4);
    await first.close!();
    const again = await env.openEpisode(task);
    await again.close!();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serveFetchHandler, type ServedHandler } from "../../agents/openai/node-http";
import type { Environment } from "../../interfaces";
import type { Task } from "../../types";
import { createExecutionValidator } from "../../validators/execution-validator";
import { createToolWorld } from "../toolworld";
import { PROTOCOL_VERSION } from "./protocol";
import { createEnvironmentHandler, type EnvironmentHandler } from "./server";

const local = createToolWorld();
let clock = 0;
let handler: EnvironmentHandler;
let served: ServedHandler;

const request = {
  skill: "lookup",
  level: 2,
  seed: 42,
  split: "train",
  origin: "seed",
  generation: 0,
} as const;

async function call(method: string, path: string, body?: unknown, raw?: string) {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: body === undefined && raw === undefined ? {} : { "content-type": "application/json" },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) };
}

async function open(task: Task): Promise<string> {
  const opened = await call("POST", "/episodes", { task });
  expect(opened.status).toBe(201);
  return opened.json.episodeId as string;
}

beforeAll(async () => {
  handler = createEnvironmentHandler(createToolWorld(), {
    maxSessions: 3,
    idleTimeoutMs: 1_000,
    now: () => clock,
  });
  served = await serveFetchHandler(handler);
});
afterAll(async () => served.close());
beforeEach(async () => {
  await handler.closeAll();
  clock = 0;
});

describe("coevolve-env/1 over node:http: happy paths", () => {
  it("GET /describe gives the protocol version, the catalog, the tools and the limits", async () => {
    const { status, json } = await call("GET", "/describe");
    expect(status).toBe(200);
    expect(json.protocol).toBe(PROTOCOL_VERSION);
    expect(json.id).toBe("toolworld");
    expect(JSON.stringify(json.catalog)).toBe(JSON.stringify(local.describe()));
    expect(JSON.stringify(json.tools)).toBe(JSON.stringify(local.tools()));
    expect(json.capabilities).toEqual({ validate: true, portable: true });
    expect(json.limits).toEqual({ maxSessions: 3, idleTimeoutMs: 1_000 });
  });

  it("POST /tasks/generate and /tasks/reference-solution answer what the environment answers in-process", async () => {
    const generated = await call("POST", "/tasks/generate", request);
    expect(generated.status).toBe(200);
    const task = await local.generateTask(request);
    expect(JSON.stringify(generated.json.task)).toBe(JSON.stringify(task));
    const reference = await call("POST", "/tasks/reference-solution", { task });
    expect(reference.status).toBe(200);
    expect(reference.json.calls).toEqual(await local.referenceSolution(task));
  });

  it("POST /tasks/from-portable rebuilds a task as the environment does in-process, or lists the issues", async () => {
    const task = await local.generateTask(request);
    const context = { origin: "imported", generation: 0, split: "train" } as const;
    const portable = {
      instruction: task.instruction,
      skill: task.skill,
      level: task.level,
      spec: task.spec,
      reference: await local.referenceSolution(task),
    };
    const rebuilt = await call("POST", "/tasks/from-portable", { task: portable, context });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.json).toEqual(await local.taskFromPortable!(portable, context));
    expect(rebuilt.json.task.id).toBe(task.id);

    const refused = await call("POST", "/tasks/from-portable", {
      task: { ...portable, skill: "astrology", spec: { ...portable.spec, worldSeed: "x" } },
      context,
    });
    expect(refused.status).toBe(200);
    expect(refused.json.ok).toBe(false);
    expect(refused.json.issues.map((i: { path: string }) => i.path)).toEqual([
      "skill",
      "spec.worldSeed",
    ]);
    const malformed = await call("POST", "/tasks/from-portable", { task: portable });
    expect(malformed.status).toBe(422);
  });

  it("runs an episode: open, view, candidates, step through the reference, score, close", async () => {
    const task = await local.generateTask(request);
    const opened = await call("POST", "/episodes", { task });
    expect(opened.status).toBe(201);
    expect(opened.json).toMatchObject({
      instruction: task.instruction,
      capabilities: { candidates: true, view: true },
    });
    expect(opened.json.tools).toBeUndefined();
    const at = `/episodes/${opened.json.episodeId as string}`;
    const mirror = local.local!.openEpisode(task);
    expect(opened.json.maxSteps).toBe(mirror.maxSteps);

    for (const step of await local.referenceSolution(task)) {
      const view = await call("GET", `${at}/view`);
      expect(view.json).toEqual(JSON.parse(JSON.stringify(mirror.view())));
      const candidates = await call("POST", `${at}/candidates`);
      expect(candidates.json.candidates).toEqual(mirror.view().candidates.map((c) => c.call));
      const stepped = await call("POST", `${at}/step`, step);
      expect(stepped.status).toBe(200);
      expect(stepped.json).toEqual(JSON.parse(JSON.stringify(mirror.stepSync(step))));
    }
    const score = await call("POST", `${at}/score`);
    expect(score.json).toEqual(mirror.scoreSync());
    expect(score.json.success).toBe(true);
    expect(handler.openSessions()).toBe(1);
    expect((await call("DELETE", at)).json).toEqual({ closed: true });
    expect(handler.openSessions()).toBe(0);
    const after = await call("POST", `${at}/step`, { tool: "finish", arguments: {} });
    expect(after.status).toBe(404);
  });

  it("POST /validate gives the execution validator's verdicts, duplicates and envSteps included", async () => {
    const good = await local.generateTask(request);
    const broken: Task = {
      ...(await local.generateTask({ ...request, seed: 43 })),
      id: "broken",
      fingerprint: "broken-fp",
    };
    const spec = broken.spec as Record<string, unknown>;
    // A reference solution whose only call cannot pass the checker.
    broken.spec = { ...spec, reference: [{ tool: "finish", arguments: {} }] } as Task["spec"];
    const candidates = [good, good, broken];
    const knownFingerprints = ["nothing-known"];
    const remote = await call("POST", "/validate", { candidates, knownFingerprints });
    expect(remote.status).toBe(200);
    const inProcess = await createExecutionValidator().validate({
      candidates,
      environment: local,
      knownFingerprints,
    });
    expect(JSON.stringify(remote.json)).toBe(JSON.stringify(inProcess));
    expect(remote.json.tasks.map((t: Task) => t.validation.status)).toEqual([
      "valid",
      "invalid",
      "invalid",
    ]);
  });

  it("serves under a base path, as the Next route mounts it", async () => {
    const { GET, POST } = await import("@/app/api/environments/toolworld/[...path]/route");
    const base = "http://app.test/api/environments/toolworld";
    const described = await GET(new Request(`${base}/describe`));
    expect(described.status).toBe(200);
    expect(((await described.json()) as { id: string }).id).toBe("toolworld");
    const generated = await POST(
      new Request(`${base}/tasks/generate`, { method: "POST", body: JSON.stringify(request) }),
    );
    const { task } = (await generated.json()) as { task: Task };
    expect(JSON.stringify(task)).toBe(JSON.stringify(await local.generateTask(request)));
    const outside = await GET(new Request("http://app.test/api/environments/other/describe"));
    expect(outside.status).toBe(404);
  });
});

describe("coevolve-env/1 with an API key", () => {
  it("answers 401 unauthorized without the Bearer key, and serves with it", async () => {
    const keyed = createEnvironmentHandler(createToolWorld(), { apiKey: "env-secret-key" });
    const bare = await keyed(new Request("http://env.test/describe"));
    expect(bare.status).toBe(401);
    const body = (await bare.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unauthorized");
    expect(JSON.stringify(body)).not.toContain("env-secret-key");
    const wrong = await keyed(
      new Request("http://env.test/describe", {
        headers: { authorization: "Bearer env-secret-kex" },
      }),
    );
    expect(wrong.status).toBe(401);
    const right = await keyed(
      new Request("http://env.test/describe", {
        headers: { authorization: "Bearer env-secret-key" },
      }),
    );
    expect(right.status).toBe(200);
  });
});

describe("coevolve-env/1 over node:http: bad input and limits", () => {
  it("answers bad JSON with 400 bad_json", async () => {
    const res = await call("POST", "/tasks/generate", undefined, "{not json");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("bad_json");
    expect(res.json.error.message).toMatch(/not valid JSON/);
    const empty = await call("POST", "/episodes", undefined, "");
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toBe("request body is empty");
  });

  it("answers schema violations with 422 naming the field", async () => {
    const res = await call("POST", "/tasks/generate", { ...request, level: "two" });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: "invalid_request" });
    expect(res.json.error.message).toMatch(/^level: /);

    const task = await local.generateTask(request);
    const badTask = await call("POST", "/episodes", { task: { ...task, spec: "nope" } });
    expect(badTask.status).toBe(422);
    expect(badTask.json.error.message).toMatch(/^task\.spec: /);

    const id = await open(task);
    const badStep = await call("POST", `/episodes/${id}/step`, { arguments: {} });
    expect(badStep.status).toBe(422);
    expect(badStep.json.error.message).toMatch(/^tool: /);
  });

  it("answers input the environment itself rejects with 422 environment_rejected, no stack", async () => {
    const res = await call("POST", "/tasks/generate", { ...request, skill: "no-such-skill" });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("environment_rejected");
    expect(res.json.error.message).toMatch(/^generate task: .*no-such-skill/);
    expect(res.text).not.toMatch(/\n\s+at /);
  });

  it("answers an unknown episode or path with 404 not_found", async () => {
    const res = await call("POST", "/episodes/ep_missing/score");
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({
      code: "not_found",
      message:
        "episode ep_missing is not open (never opened, closed, or expired after 1000 ms idle)",
    });
    expect((await call("DELETE", "/episodes/ep_missing")).status).toBe(404);
    const path = await call("GET", "/nowhere");
    expect(path.status).toBe(404);
    expect(path.json.error.message).toBe("no endpoint /nowhere");
  });

  it("answers a wrong method with 405 and an Allow header", async () => {
    const res = await call("POST", "/describe", {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.json.error.code).toBe("method_not_allowed");
    const list = await call("GET", "/episodes");
    expect(list.status).toBe(405);
    expect(list.headers.get("allow")).toBe("POST");
  });

  it("caps open episodes with 429 too_many_sessions until one is closed", async () => {
    const task = await local.generateTask(request);
    const ids = [await open(task), await open(task), await open(task)];
    const refused = await call("POST", "/episodes", { task });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.json.error.code).toBe("too_many_sessions");
    expect(refused.json.error.message).toMatch(/3 episodes are open \(limit 3\)/);
    await call("DELETE", `/episodes/${ids[0]!}`);
    expect((await call("POST", "/episodes", { task })).status).toBe(201);
  });

  it("expires idle episodes; any use keeps an episode alive", async () => {
    const task = await local.generateTask(request);
    const idle = await open(task);
    const busy = await open(task);
    clock = 600;
    expect((await call("GET", `/episodes/${busy}/candidates`)).status).toBe(200);
    clock = 1_200;
    expect((await call("POST", `/episodes/${idle}/score`)).status).toBe(404);
    expect((await call("POST", `/episodes/${busy}/score`)).status).toBe(200);
    expect(handler.openSessions()).toBe(1);
    clock = 5_000;
    expect(handler.openSessions()).toBe(0);
  });

  it("answers a failure of the server itself with a bare 500, no internals", async () => {
    const seen: unknown[] = [];
    const broken: Environment = {
      ...local,
      describe: () => {
        throw new Error("secret detail /srv/app/world.ts:12");
      },
    };
    const res = await createEnvironmentHandler(broken, { onError: (e) => seen.push(e) })(
      new Request("http://x/describe"),
    );
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({
      error: { code: "internal", message: "the environment server failed" },
    });
    expect(body).not.toMatch(/secret/);
    expect(seen).toHaveLength(1);
  });
});

import { randomBytes } from "node:crypto";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { importTasks } from "@/lib/db/mutations/import-tasks";
import { createConnection } from "@/lib/db/mutations/connections";
import { serveFetchHandler, type ServedHandler } from "@/lib/engine/agents/openai/node-http";
import { createEnvironmentHandler } from "@/lib/engine/environments/http/server";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import { httpStatusOf, isAppError, type AppError } from "@/lib/errors";
import { prepareExport } from "@/lib/export/create-export";
import { ConnectionInputSchema } from "@/lib/validations/connection";
import { ExportQuerySchema, type ExportQuery } from "@/lib/validations/export";
import { parseRunConfig, type RunConfigInput } from "@/lib/validations/run-config";
import { seedExportRun, type SeededRun } from "@/tests/support/export-fixtures";
import { testDatabaseUrl } from "@/tests/support/db";

vi.mock("server-only", () => ({}));

/**
 * Export and import of a run whose environment is ToolWorld behind coevolve-env/1 on a real
 * node:http server, keyed through a saved connection: they resolve it like the worker does.
 */

const ENV_KEY = `sk-env-${randomBytes(12).toString("hex")}`;
const secretKey = randomBytes(32);
const suffix = randomBytes(3).toString("hex");
const CONNECTION = `remote-env-${suffix}`;

let pool: Pool;
let envServer: ServedHandler;
let plainServer: ServedHandler;
let deadUrl: string;
/** Paths the keyed server was asked for, in order. */
const requests: string[] = [];
let isFailing = false;

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  const handler = createEnvironmentHandler(createToolWorld());
  envServer = await serveFetchHandler(async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
    if (request.headers.get("authorization") !== `Bearer ${ENV_KEY}`) {
      return Response.json({ error: { code: "unauthorized" } }, { status: 401 });
    }
    if (isFailing) {
      return Response.json(
        { error: { code: "internal", message: "injected outage" } },
        {
          status: 500,
        },
      );
    }
    return handler(request);
  });
  // A server that does not rebuild portable tasks: its /describe leaves the capability out.
  plainServer = await serveFetchHandler(async (request) => {
    const response = await handler(request);
    if (new URL(request.url).pathname !== "/describe") return response;
    const description = (await response.json()) as { capabilities: Record<string, unknown> };
    delete description.capabilities.portable;
    return Response.json(description);
  });
  const dead = await serveFetchHandler(async () => new Response(null, { status: 204 }));
  deadUrl = dead.url;
  await dead.close();

  await createConnection(
    pool,
    ConnectionInputSchema.parse({
      name: CONNECTION,
      kind: "http-environment",
      baseUrl: envServer.url,
      apiKey: ENV_KEY,
      runId: "",
    }),
    secretKey,
  );
});

afterAll(async () => {
  await pool?.query(`DELETE FROM "Connection" WHERE name = $1`, [CONNECTION]);
  await pool?.end();
  await Promise.all([envServer?.close(), plainServer?.close()]);
});

/** A seeded run whose config points at an HTTP environment instead of the builtin one. */
async function remoteRun(
  name: string,
  environment: RunConfigInput["environment"],
  tasks = 0,
): Promise<SeededRun> {
  const run = await seedExportRun(pool, { name, tasks, samplesPerTask: tasks > 0 ? 2 : 0 });
  await pool.query(`UPDATE "Run" SET environment = 'http', config = $2 WHERE id = $1`, [
    run.runId,
    JSON.stringify(parseRunConfig({ seed: 7, environment })),
  ]);
  return run;
}

const keyed = () => ({ kind: "http" as const, baseUrl: envServer.url, connection: CONNECTION });

async function exportText(slug: string, input: Partial<ExportQuery> = {}): Promise<string> {
  const prepared = await prepareExport({
    db: pool,
    slug,
    secretKey,
    ...ExportQuerySchema.parse({ purpose: "all", status: "all", ...input }),
  });
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of prepared.body) text += decoder.decode(chunk, { stream: true });
  return text;
}

/** Records without the run slug, which differs between the two runs by construction. */
const comparable = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const record = JSON.parse(line) as { metadata: Record<string, unknown> };
      delete record.metadata.run;
      return record;
    });

async function caught(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

async function taskCount(runId: number): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM "Task" WHERE "runId" = $1`,
    [runId],
  );
  return rows[0]!.count;
}

describe("export of a run with an HTTP environment", () => {
  it("writes the builtin run's JSONL and tasks, tools included, through the keyed server", async () => {
    const builtin = await seedExportRun(pool, { name: "local", tasks: 6, samplesPerTask: 2 });
    const remote = await remoteRun("remote", keyed(), 6);
    requests.length = 0;

    const local = await exportText(builtin.slug);
    const overHttp = await exportText(remote.slug);
    expect(comparable(overHttp)).toEqual(comparable(local));
    const first = JSON.parse(overHttp.split("\n")[0]!) as { tools: unknown[] };
    expect(first.tools.length).toBeGreaterThan(0);
    expect(requests).toContain("GET /describe");

    // The portable tasks carry reference solutions the remote environment computed.
    const tasks = await exportText(remote.slug, { format: "tasks" });
    expect(comparable(tasks)).toEqual(
      comparable(await exportText(builtin.slug, { format: "tasks" })),
    );
    expect(requests.some((request) => request.includes("reference"))).toBe(true);
    expect(overHttp + tasks).not.toContain(ENV_KEY);
  });

  it("refuses an unreachable server or a missing connection with a 503 error naming the URL, never the key", async () => {
    const down = await remoteRun("down", { kind: "http", baseUrl: deadUrl });
    const error = await caught(exportText(down.slug));
    expect(error.code).toBe("UNAVAILABLE");
    expect(httpStatusOf(error)).toBe(503);
    expect(error.message).toContain(`Environment ${deadUrl} is not available: `);
    expect(error.message).toMatch(/cannot reach/);
    expect(`${error.message} ${error.hint}`).not.toContain(ENV_KEY);

    const unkeyed = await remoteRun("unkeyed", {
      kind: "http",
      baseUrl: envServer.url,
      connection: "no-such-connection",
    });
    const missing = await caught(exportText(unkeyed.slug));
    expect(missing.code).toBe("UNAVAILABLE");
    expect(missing.message).toBe(
      `Environment ${envServer.url} is not available: no connection named "no-such-connection" (add it under Settings → Connections)`,
    );
  });
});

describe("import into a run with an HTTP environment", () => {
  const world = createToolWorld();
  const tasksFile = () =>
    [1, 2, 3]
      .map((seed) => {
        const task = world.local!.generateTask({
          skill: "lookup",
          level: 1,
          seed,
          split: "train",
          origin: "seed",
          generation: 0,
        });
        const { instruction, skill, level, spec } = task;
        return JSON.stringify({ instruction, skill, level, spec });
      })
      .join("\n");
  const importInto = (slug: string, isDryRun = false) =>
    importTasks({ pool, slug, source: [tasksFile()], format: "jsonl", isDryRun, secretKey });

  async function fingerprints(runId: number): Promise<string[]> {
    const { rows } = await pool.query<{ fingerprint: string }>(
      `SELECT fingerprint FROM "Task" WHERE "runId" = $1 ORDER BY fingerprint`,
      [runId],
    );
    return rows.map((row) => row.fingerprint);
  }

  it("rebuilds and validates the tasks on the remote server and writes what the builtin run would", async () => {
    const local = await seedExportRun(pool, { name: "imp-local", tasks: 0, samplesPerTask: 0 });
    const remote = await remoteRun("imp-remote", keyed());
    requests.length = 0;

    const summary = await importInto(remote.slug);
    expect(summary).toMatchObject({ imported: 3, errors: [], isDryRun: false });
    expect(requests.filter((r) => r === "POST /tasks/from-portable")).toHaveLength(3);
    // The execution validator ran episodes over the protocol.
    expect(requests).toContain("POST /episodes");

    expect((await importInto(local.slug)).imported).toBe(3);
    expect(await fingerprints(remote.runId)).toEqual(await fingerprints(local.runId));
  });

  it("refuses with the environment's URL when its server is down or fails, and writes nothing", async () => {
    const down = await remoteRun("imp-down", { kind: "http", baseUrl: deadUrl });
    const unreachable = await caught(importInto(down.slug));
    expect(unreachable.code).toBe("UNAVAILABLE");
    expect(unreachable.message).toContain(`Environment ${deadUrl} is not available: `);
    expect(unreachable.message).not.toContain(ENV_KEY);
    expect(await taskCount(down.runId)).toBe(0);

    // Connected once (cached), then the server fails: the same clear error, not a line error.
    const flaky = await remoteRun("imp-flaky", keyed());
    expect((await importInto(flaky.slug, true)).imported).toBe(3);
    isFailing = true;
    try {
      const failed = await caught(importInto(flaky.slug));
      expect(failed.code).toBe("UNAVAILABLE");
      expect(failed.message).toContain(`Environment ${envServer.url} is not available: `);
      expect(failed.message).toContain("injected outage");
      expect(failed.message).not.toContain(ENV_KEY);
    } finally {
      isFailing = false;
    }
    expect(await taskCount(flaky.runId)).toBe(0);
  });

  it("says a server without capabilities.portable cannot take imported tasks", async () => {
    const plain = await remoteRun("imp-plain", { kind: "http", baseUrl: plainServer.url });
    const refused = await caught(importInto(plain.slug));
    expect(refused.message).toBe(
      `Environment ${plainServer.url} cannot take imported tasks: its server does not offer capabilities.portable (POST /tasks/from-portable).`,
    );
    expect(await taskCount(plain.runId)).toBe(0);
  });
});

import { randomBytes } from "node:crypto";
import { Pool } from "pg";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { createConnection } from "@/lib/db/mutations/connections";
import { createRun, launchRound } from "@/lib/db/mutations/rounds";
import { serveFetchHandler, type ServedHandler } from "@/lib/engine/agents/openai/node-http";
import {
  createEnvironmentHandler,
  type EnvironmentHandler,
} from "@/lib/engine/environments/http/server";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import { runInMemory } from "@/lib/engine/run";
import { generateEvaluationSet } from "@/lib/engine/setup";
import { prepareExport } from "@/lib/export/create-export";
import { createRunPolicyHandler } from "@/lib/policy-endpoint";
import { ConnectionInputSchema } from "@/lib/validations/connection";
import { ExportQuerySchema } from "@/lib/validations/export";
import { parseRunConfig, type RunConfigInput } from "@/lib/validations/run-config";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/db";
import {
  REMOTE_STAGE_EXPIRY_SECONDS,
  rolloutBatchExpirySeconds,
  stageExpirySeconds,
} from "./expiry";
import { createBoss, ensureQueues, JOB_EXPIRY_SECONDS } from "./queue";
import { startWorker, type RunningWorker } from "./worker";

vi.mock("server-only", () => ({}));

/**
 * The acceptance path of issue 6: a persisted run whose agent is the OpenAI-compatible agent
 * talking real HTTP to the dashboard's builtin-policy chat endpoint, and whose environment is
 * ToolWorld behind the coevolve-env/1 HTTP protocol, both keyed through saved connections.
 */

const SMALL: RunConfigInput = {
  seed: 7,
  tasksPerRound: 12,
  groupSize: 4,
  seedPoolSize: 12,
  heldoutPerCell: 1,
  synthesisBudget: 12,
};
const AGENT_KEY = `sk-agent-${randomBytes(12).toString("hex")}`;
const ENV_KEY = `sk-env-${randomBytes(12).toString("hex")}`;
const secretKey = randomBytes(32);

let database: ScratchDatabase;
let pool: Pool;
let boss: PgBoss;
let worker: RunningWorker;
let chatServer: ServedHandler;
let envServer: ServedHandler;
let envHandler: EnvironmentHandler;
const workerLog: string[] = [];
const consoleLines: string[] = [];
/** Chat requests for these task ids answer 500 (the fault variant); empty = no faults. */
const failingTaskIds = new Set<string>();
let chatRequests = 0;
let unauthorizedChats = 0;
let synthesisRequests = 0;
let environmentRequests = 0;
/** When set, opening an episode on the environment server answers 500. */
let failEpisodes = false;

function requireBearer(key: string, handler: (request: Request) => Promise<Response>) {
  return async (request: Request) => {
    if (request.headers.get("authorization") !== `Bearer ${key}`) {
      return Response.json({ error: { code: "unauthorized" } }, { status: 401 });
    }
    return handler(request);
  };
}

beforeAll(async () => {
  database = await createScratchDatabase("external_run");
  await migrate({ connectionString: database.url });
  pool = new Pool({ connectionString: database.url, max: 8 });
  pool.on("error", () => {});
  boss = createBoss(database.url, "client");
  await boss.start();
  await ensureQueues(boss);

  const policyHandler = createRunPolicyHandler({ db: pool, apiKey: AGENT_KEY });
  chatServer = await serveFetchHandler(async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname.endsWith("/chat/completions")) {
      chatRequests++;
      if (request.headers.get("authorization") !== `Bearer ${AGENT_KEY}`) unauthorizedChats++;
      const body = (await request.clone().json()) as {
        metadata?: { task_id?: string; coevolve_synthesis?: string };
      };
      if (body.metadata?.coevolve_synthesis) synthesisRequests++;
      if (failingTaskIds.has(body.metadata?.task_id ?? "")) {
        return Response.json({ error: { message: "injected overload" } }, { status: 500 });
      }
    }
    return policyHandler(request);
  });
  envHandler = createEnvironmentHandler(createToolWorld());
  const keyedEnvironment = requireBearer(ENV_KEY, envHandler);
  envServer = await serveFetchHandler(async (request) => {
    environmentRequests++;
    if (
      failEpisodes &&
      request.method === "POST" &&
      new URL(request.url).pathname === "/episodes"
    ) {
      return Response.json(
        { error: { code: "internal", message: "injected outage" } },
        { status: 500 },
      );
    }
    return keyedEnvironment(request);
  });

  for (const [name, kind, baseUrl, apiKey] of [
    ["policy", "openai", `${chatServer.url}/v1`, AGENT_KEY],
    ["toolworld-remote", "http-environment", envServer.url, ENV_KEY],
  ] as const) {
    await createConnection(
      pool,
      ConnectionInputSchema.parse({ name, kind, baseUrl, apiKey, runId: "" }),
      secretKey,
    );
  }
  for (const method of ["log", "info", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleLines.push(args.map(String).join(" "));
    });
  }
  worker = await startWorker({
    connectionString: database.url,
    secretKey,
    log: (line) => workerLog.push(line),
  });
});

afterAll(async () => {
  await worker?.stop();
  await boss?.stop({ graceful: false });
  await pool?.end();
  await Promise.all([chatServer?.close(), envServer?.close()]);
  await database?.drop();
  vi.restoreAllMocks();
});

const ctx = () => ({ pool, boss, actor: "test@example.com" });

type GenerationState = {
  status: string;
  error: string | null;
  heldout: { success: number } | null;
};

async function waitForStatus(runId: number, index: number, statuses: string[]) {
  const read = async () => {
    const { rows } = await pool.query<GenerationState>(
      `SELECT status, error, heldout FROM "Generation" WHERE "runId" = $1 AND index = $2`,
      [runId, index],
    );
    return rows[0];
  };
  await expect
    .poll(async () => (await read())?.status, { timeout: 120_000, interval: 200 })
    .toBeOneOf(statuses);
  return (await read())!;
}

/** Generation 0 and one round to DONE; returns both generations. */
async function runOneRound(name: string, input: RunConfigInput) {
  const run = await createRun(ctx(), { name, config: parseRunConfig(input) });
  const gen0 = await waitForStatus(run.id, 0, ["DONE", "FAILED"]);
  expect(gen0.error).toBeNull();
  await launchRound(ctx(), { runId: run.id });
  const gen1 = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);
  expect(gen1.error).toBeNull();
  return { run, gen0, gen1 };
}

type StoredTrajectory = {
  index: number;
  key: string;
  purpose: string;
  sampleIndex: number;
  tools: string[];
  stepKeys: string[];
  reward: number;
  success: boolean;
  stepCount: number;
  endReason: string;
  error: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
};

async function trajectoriesOf(runId: number): Promise<StoredTrajectory[]> {
  const { rows } = await pool.query<StoredTrajectory>(
    `SELECT g.index, t.key, tr.purpose, tr."sampleIndex",
            ARRAY(SELECT s ->> 'tool' FROM jsonb_array_elements(tr.steps) s) AS tools,
            ARRAY(SELECT DISTINCT k FROM jsonb_array_elements(tr.steps) s, jsonb_object_keys(s) k
                   ORDER BY k) AS "stepKeys",
            tr.reward, tr.success, tr."stepCount", tr."endReason", tr.error,
            tr."promptTokens", tr."completionTokens"
       FROM "Trajectory" tr JOIN "Task" t ON t.id = tr."taskId"
       JOIN "Generation" g ON g.id = tr."generationId"
      WHERE g."runId" = $1 ORDER BY g.index, tr.purpose, t.key, tr."sampleIndex"`,
    [runId],
  );
  return rows;
}

/** Every text the run left in the database, for the "key appears nowhere" checks. */
async function everythingStoredFor(runId: number): Promise<string> {
  const { rows } = await pool.query<{ text: string }>(
    `SELECT concat_ws(' ',
        (SELECT r::text FROM "Run" r WHERE r.id = $1),
        (SELECT string_agg(g::text, ' ') FROM "Generation" g WHERE g."runId" = $1),
        (SELECT string_agg(tr::text, ' ') FROM "Trajectory" tr
           JOIN "Generation" g ON g.id = tr."generationId" WHERE g."runId" = $1),
        (SELECT string_agg(t::text, ' ') FROM "Task" t WHERE t."runId" = $1),
        (SELECT string_agg(a::text, ' ') FROM "AuditEvent" a WHERE a."runId" = $1)) AS text`,
    [runId],
  );
  return rows[0]!.text;
}

async function exportText(slug: string): Promise<string> {
  const prepared = await prepareExport({
    ...ExportQuerySchema.parse({ format: "jsonl", purpose: "all", status: "all" }),
    db: pool,
    slug,
  });
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of prepared.body) text += decoder.decode(chunk, { stream: true });
  return text;
}

describe("a persisted run with the agent and the environment behind real HTTP", () => {
  it("goes through SEED and a full round like the builtin run: same trajectories, same held-out success, keys never stored", async () => {
    const builtin = await runOneRound("Builtin reference", SMALL);
    const external = await runOneRound("Over HTTP", {
      ...SMALL,
      agent: {
        kind: "openai",
        baseUrl: `${chatServer.url}/v1`,
        model: "{run}@v{version}",
        connection: "policy",
        sendTaskId: true,
        requestLogprobs: true,
        topLogprobs: 1000,
        concurrency: 4,
        timeoutMs: 30_000,
        retries: 1,
      },
      environment: { kind: "http", baseUrl: envServer.url, connection: "toolworld-remote" },
      // The LLM synthesizer, against the same policy server: it answers `coevolve_task` requests
      // with the rule synthesizer's task for the slot (sendContext), so the tasks must match.
      synthesizer: {
        kind: "llm",
        baseUrl: `${chatServer.url}/v1`,
        model: "coevolve-synthesizer",
        connection: "policy",
        sendContext: true,
        timeoutMs: 30_000,
        retries: 1,
      },
    });

    // Synthesis went over HTTP and made the builtin round's tasks.
    const bornTasks = async (runId: number) =>
      (
        await pool.query<{ fingerprint: string; skill: string; level: number; validation: string }>(
          `SELECT t.fingerprint, t.skill, t.level, t."validationStatus" AS validation
             FROM "Task" t JOIN "Generation" g ON g.id = t."generationId"
            WHERE t."runId" = $1 AND g.index = 1 ORDER BY t.fingerprint`,
          [runId],
        )
      ).rows;
    const builtinTasks = await bornTasks(builtin.run.id);
    expect(builtinTasks.length).toBeGreaterThan(0);
    expect(await bornTasks(external.run.id)).toEqual(builtinTasks);
    expect(synthesisRequests).toBeGreaterThan(0);

    // The builtin run (default worker deps) is the in-memory engine's; the HTTP one equals it.
    const memory = await runInMemory({ ...SMALL, rounds: 1 });
    expect(builtin.gen0.heldout!.success).toBe(memory.result.heldout[0]!.success);
    expect(builtin.gen1.heldout!.success).toBe(memory.result.heldout[1]!.success);
    expect(external.gen0.heldout!.success).toBe(builtin.gen0.heldout!.success);
    expect(external.gen1.heldout!.success).toBe(builtin.gen1.heldout!.success);

    const reference = await trajectoriesOf(builtin.run.id);
    const remote = await trajectoriesOf(external.run.id);
    expect(remote.length).toBe(reference.length);
    // gen 0 train (12 × 4) + eval for gen 0 and gen 1.
    expect(remote.filter((t) => t.purpose === "TRAIN")).toHaveLength(12 * 4);
    const comparable = (t: StoredTrajectory) => ({
      index: t.index,
      key: t.key,
      purpose: t.purpose,
      sampleIndex: t.sampleIndex,
      tools: t.tools,
      stepKeys: t.stepKeys,
      reward: t.reward,
      success: t.success,
      stepCount: t.stepCount,
      endReason: t.endReason,
      error: t.error,
    });
    expect(remote.map(comparable)).toEqual(reference.map(comparable));
    // What only the remote agent reports: token usage; the builtin agent leaves it empty.
    expect(remote.every((t) => t.promptTokens! > 0 && t.completionTokens! > 0)).toBe(true);
    expect(reference.every((t) => t.promptTokens === null && t.completionTokens === null)).toBe(
      true,
    );

    expect(chatRequests).toBeGreaterThan(remote.length);
    expect(unauthorizedChats).toBe(0);
    // Every episode step went over the protocol (plus describe, open, score, close).
    expect(environmentRequests).toBeGreaterThan(remote.reduce((sum, t) => sum + t.stepCount, 0));
    expect(envHandler.openSessions()).toBe(0);
    const { rows: runRow } = await pool.query<{ agent: string; environment: string }>(
      `SELECT agent, environment FROM "Run" WHERE id = $1`,
      [external.run.id],
    );
    expect(runRow[0]).toEqual({ agent: "openai", environment: "http" });

    const stored = await everythingStoredFor(external.run.id);
    expect(stored).toContain("{run}@v{version}");
    for (const key of [AGENT_KEY, ENV_KEY]) {
      expect(stored).not.toContain(key);
      expect(workerLog.join("\n")).not.toContain(key);
      expect(consoleLines.join("\n")).not.toContain(key);
    }
  });

  it("without the connection's key the endpoints refuse, so the key is what lets the run in", async () => {
    const chat = await fetch(`${chatServer.url}/v1/models`);
    expect(chat.status).toBe(401);
    const env = await fetch(`${envServer.url}/describe`);
    expect(env.status).toBe(401);
  });

  it("stores rollouts the endpoint answered 500 for as failed with the reason, and the round still completes", async () => {
    const config: RunConfigInput = {
      ...SMALL,
      seed: 11,
      agent: {
        kind: "openai",
        baseUrl: `${chatServer.url}/v1`,
        model: "{run}@v{version}",
        connection: "policy",
        sendTaskId: true,
        retries: 1,
        timeoutMs: 10_000,
      },
    };
    // Held-out tasks are a pure function of the config: fail every request about the first four,
    // from the first evaluation on.
    const heldout = await generateEvaluationSet(
      createToolWorld(),
      parseRunConfig(config),
      "heldout",
    );
    const failing = heldout.slice(0, 4).map((task) => task.id);
    failing.forEach((key) => failingTaskIds.add(key));
    const run = await createRun(ctx(), { name: "Faulty endpoint", config: parseRunConfig(config) });
    // Also a training task of round 1's pool: its whole group fails.
    try {
      const gen0 = await waitForStatus(run.id, 0, ["DONE", "FAILED"]);
      expect(gen0.error).toBeNull();
      const { rows: poolTasks } = await pool.query<{ key: string }>(
        `SELECT t.key FROM "PoolEntry" p JOIN "Task" t ON t.id = p."taskId"
           JOIN "Generation" g ON g.id = p."generationId"
          WHERE g."runId" = $1 AND g.index = 0 ORDER BY p.position LIMIT 1`,
        [run.id],
      );
      failingTaskIds.add(poolTasks[0]!.key);
      await launchRound(ctx(), { runId: run.id });
      const gen1 = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);
      expect(gen1.error).toBeNull();
      expect(gen1.status).toBe("DONE");
    } finally {
      failingTaskIds.clear();
    }

    const trajectories = await trajectoriesOf(run.id);
    const failed = trajectories.filter((t) => t.endReason === "agent_error");
    const failedKeys = new Set(failed.map((t) => t.key));
    // Both held-out evaluations of the four tasks, and the 4 rollouts of the pool task's group.
    expect(failed.filter((t) => t.purpose === "EVAL")).toHaveLength(2 * failing.length);
    expect(failed.filter((t) => t.purpose === "TRAIN")).toHaveLength(4);
    expect(failedKeys).toEqual(new Set([...failing, poolKeyOf(failed)]));
    for (const t of failed) {
      expect(t.success).toBe(false);
      expect(t.reward).toBe(0);
      expect(t.error).toMatch(/500/);
      expect(t.error).not.toContain(AGENT_KEY);
    }
    // Everything else went through.
    const ok = trajectories.filter((t) => t.endReason !== "agent_error");
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.every((t) => t.error === null)).toBe(true);

    const exported = await exportText((await slugOf(run.id))!);
    expect(exported.length).toBeGreaterThan(0);
    expect(exported).not.toContain(AGENT_KEY);
    expect(await everythingStoredFor(run.id)).not.toContain(AGENT_KEY);
  });
});

describe("a run whose external parts cannot be used", () => {
  const agentNaming = (connection: string): RunConfigInput => ({
    ...SMALL,
    agent: {
      kind: "openai",
      baseUrl: `${chatServer.url}/v1`,
      model: "{run}@v{version}",
      connection,
    },
  });

  it("fails generation 0 with the reason when its connection is missing or of another kind", async () => {
    const missing = await createRun(ctx(), {
      name: "Missing connection",
      config: parseRunConfig(agentNaming("nowhere")),
    });
    const failed = await waitForStatus(missing.id, 0, ["DONE", "FAILED"]);
    expect(failed.status).toBe("FAILED");
    expect(failed.error).toBe(
      'SEED: no connection named "nowhere" (add it under Settings → Connections)',
    );

    const wrongKind = await createRun(ctx(), {
      name: "Wrong kind",
      config: parseRunConfig(agentNaming("toolworld-remote")),
    });
    const refused = await waitForStatus(wrongKind.id, 0, ["DONE", "FAILED"]);
    expect(refused.error).toBe(
      'SEED: connection "toolworld-remote" is a http-environment connection, not openai',
    );
    expect(refused.error).not.toContain(ENV_KEY);
  });

  it("fails the round with the environment's error when episodes cannot be opened, instead of retrying forever", async () => {
    const run = await createRun(ctx(), {
      name: "Environment outage",
      config: parseRunConfig({
        ...SMALL,
        seed: 13,
        environment: { kind: "http", baseUrl: envServer.url, connection: "toolworld-remote" },
      }),
    });
    const gen0 = await waitForStatus(run.id, 0, ["DONE", "FAILED"]);
    expect(gen0.error).toBeNull();
    failEpisodes = true;
    try {
      await launchRound(ctx(), { runId: run.id });
      const gen1 = await waitForStatus(run.id, 1, ["DONE", "FAILED"]);
      expect(gen1.status).toBe("FAILED");
      expect(gen1.error).toMatch(/^ROLLOUT: HTTP environment POST \/episodes: .*500/);
      expect(gen1.error).not.toContain(ENV_KEY);
    } finally {
      failEpisodes = false;
    }
  });
});

function poolKeyOf(failed: StoredTrajectory[]): string {
  return failed.find((t) => t.purpose === "TRAIN")!.key;
}

async function slugOf(runId: number): Promise<string | undefined> {
  const { rows } = await pool.query<{ slug: string }>(`SELECT slug FROM "Run" WHERE id = $1`, [
    runId,
  ]);
  return rows[0]?.slug;
}

describe("job expiry for runs with external parts", () => {
  it("keeps the queue default for builtin runs and covers timeouts × retries × steps for a remote agent", () => {
    expect(rolloutBatchExpirySeconds(parseRunConfig({}), 48)).toBeNull();
    expect(stageExpirySeconds(parseRunConfig({}))).toBeNull();
    const remote = parseRunConfig({
      agent: {
        kind: "openai",
        baseUrl: "http://x/v1",
        model: "m",
        timeoutMs: 60_000,
        retries: 3,
        concurrency: 8,
      },
    });
    // (60 s × 4 attempts + 3 × 8 s backoff) × 17 steps × ⌈48 / 8⌉ waves, capped at 23 h.
    expect(rolloutBatchExpirySeconds(remote, 48)).toBe(Math.min(264 * 17 * 6, 23 * 3600));
    expect(rolloutBatchExpirySeconds(remote, 4800)).toBe(23 * 3600);
    const quick = parseRunConfig({
      agent: { kind: "openai", baseUrl: "http://x/v1", model: "m", timeoutMs: 1000, retries: 0 },
    });
    // Never below the stage expiry of a remote run.
    expect(rolloutBatchExpirySeconds(quick, 1)).toBe(REMOTE_STAGE_EXPIRY_SECONDS);
    const remoteEnvironment = parseRunConfig({
      environment: { kind: "http", baseUrl: "http://e" },
    });
    expect(stageExpirySeconds(remoteEnvironment)).toBe(REMOTE_STAGE_EXPIRY_SECONDS);
    expect(rolloutBatchExpirySeconds(remoteEnvironment, 48)).toBe(REMOTE_STAGE_EXPIRY_SECONDS);
    // An LLM synthesizer alone makes SYNTHESIZE a remote stage (model calls of up to a minute).
    const llmSynthesis = parseRunConfig({
      synthesizer: { kind: "llm", baseUrl: "http://s/v1", model: "m" },
    });
    expect(stageExpirySeconds(llmSynthesis)).toBe(REMOTE_STAGE_EXPIRY_SECONDS);
  });

  it("enqueues a remote run's stage and rollout jobs with those expiries, a builtin run's with 30 s", async () => {
    const { rows } = await pool.query<{ agent: string; name: string; expire: number }>(
      `SELECT r.agent, j.name, max(extract(epoch FROM j.expire_in))::int AS expire
         FROM pgboss.job j
         JOIN "Generation" g ON g.id = (j.data ->> 'generationId')::int
         JOIN "Run" r ON r.id = g."runId"
        WHERE r.name IN ('Builtin reference', 'Over HTTP')
        GROUP BY r.agent, j.name ORDER BY r.agent, j.name`,
    );
    const openAi = parseRunConfig({
      agent: { kind: "openai", baseUrl: "http://x/v1", model: "m", timeoutMs: 30_000, retries: 1 },
    });
    expect(rows).toEqual([
      { agent: "builtin", name: "rollout-batch", expire: JOB_EXPIRY_SECONDS },
      { agent: "builtin", name: "round-stage", expire: JOB_EXPIRY_SECONDS },
      {
        agent: "openai",
        name: "rollout-batch",
        expire: rolloutBatchExpirySeconds(openAi, 35),
      },
      { agent: "openai", name: "round-stage", expire: REMOTE_STAGE_EXPIRY_SECONDS },
    ]);
  });
});

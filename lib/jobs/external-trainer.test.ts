import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { createConnection } from "@/lib/db/mutations/connections";
import { cancelRound, createRun, launchRound, retryRound } from "@/lib/db/mutations/rounds";
import { getRunProgress } from "@/lib/db/queries/generations";
import { runInMemory } from "@/lib/engine/run";
import { ConnectionInputSchema } from "@/lib/validations/connection";
import { parseRunConfig, type RunConfigInput } from "@/lib/validations/run-config";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/db";
import { TRAINING_DATA_FORMAT, type TrainingJobManifest } from "./external-trainer";
import { createBoss, ensureQueues } from "./queue";
import { startWorker, type RunningWorker } from "./worker";

vi.mock("server-only", () => ({}));

const SMALL: RunConfigInput = {
  seed: 7,
  tasksPerRound: 12,
  groupSize: 4,
  seedPoolSize: 12,
  heldoutPerCell: 1,
  synthesisBudget: 12,
};
const EXAMPLE_TRAINER = [
  process.execPath,
  "--import",
  "tsx",
  path.resolve("scripts/example-external-trainer.ts"),
];

let database: ScratchDatabase;
let pool: Pool;
let boss: PgBoss;
let worker: RunningWorker;
let app: http.Server;
let appUrl: string;
let webhook: http.Server;
let webhookUrl: string;
const webhookCalls: { authorization: string | undefined; body: WebhookBody }[] = [];
let dataDir: string;
const secretKey = randomBytes(32);

type WebhookBody = TrainingJobManifest & { token: string };

/** The app's two trainer routes, mounted on a real HTTP server as Next would serve them. */
async function startApp(): Promise<void> {
  const checkpoint = await import("@/app/api/runs/[slug]/generations/[n]/checkpoint/route");
  const trainingData = await import("@/app/api/runs/[slug]/generations/[n]/training-data/route");
  app = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, appUrl);
      const match = /^\/api\/runs\/([^/]+)\/generations\/([^/]+)\/(checkpoint|training-data)$/.exec(
        url.pathname,
      );
      if (!match) return res.writeHead(404).end();
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = new Request(url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
      });
      const params = {
        params: Promise.resolve({ slug: decodeURIComponent(match[1]!), n: match[2]! }),
      };
      const response =
        match[3] === "checkpoint"
          ? await checkpoint.POST(request, params)
          : await trainingData.GET(request, params);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  database = await createScratchDatabase("external_trainer");
  await migrate({ connectionString: database.url });
  // The routes reach the database the way the web app does: through DATABASE_URL.
  process.env.DATABASE_URL = database.url;
  pool = new Pool({ connectionString: database.url, max: 8 });
  pool.on("error", () => {});
  boss = createBoss(database.url, "client");
  await boss.start();
  await ensureQueues(boss);
  await startApp();
  webhook = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      webhookCalls.push({
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as WebhookBody,
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/train`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-trainer-"));
  worker = await startWorker({
    connectionString: database.url,
    externalTrainer: { dataDir, publicUrl: appUrl },
    secretKey,
  });
});

afterAll(async () => {
  await worker?.stop();
  await boss?.stop({ graceful: false });
  await pool?.end();
  app?.close();
  webhook?.close();
  const { getPool } = await import("@/lib/db/pool");
  const { getQueueClient } = await import("./client");
  await (await getQueueClient()).stop({ graceful: false });
  await getPool().end();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type GenerationState = { id: number; status: string; stage: string; error: string | null };

async function generation(runId: number, index: number): Promise<GenerationState> {
  const { rows } = await pool.query<GenerationState>(
    `SELECT id, status, stage, error FROM "Generation" WHERE "runId" = $1 AND index = $2`,
    [runId, index],
  );
  return rows[0]!;
}

async function waitFor(runId: number, index: number, statuses: string[]) {
  await expect
    .poll(async () => (await generation(runId, index))?.status, { timeout: 60_000, interval: 100 })
    .toBeOneOf(statuses);
  return generation(runId, index);
}

const ctx = () => ({ pool, boss, actor: "test@example.com" });

async function startRound(trainer: RunConfigInput["trainer"], mode: "static" | "coevolve") {
  const config = parseRunConfig({ ...SMALL, mode, trainer });
  const run = await createRun(ctx(), { name: "External", config });
  await waitFor(run.id, 0, ["DONE"]);
  await launchRound(ctx(), { runId: run.id });
  return { run, config };
}

async function post(
  url: string,
  token: string | null,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function nextWebhookCall(count: number): Promise<WebhookBody> {
  await expect.poll(() => webhookCalls.length, { timeout: 60_000, interval: 50 }).toBe(count);
  return webhookCalls[count - 1]!.body;
}

/** A command that saves its environment (where the token arrives) and exits without reporting. */
function captureCommand(file: string): string[] {
  return [
    process.execPath,
    "-e",
    "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.env))",
    file,
  ];
}

async function capturedEnv(file: string): Promise<Record<string, string>> {
  await expect
    .poll(() => fs.existsSync(file) && fs.statSync(file).size > 0, { timeout: 30_000 })
    .toBe(true);
  return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
}

describe("external trainer", () => {
  it("trains out of process with the example trainer and persists the builtin round's result", async () => {
    const { run, config } = await startRound(
      { kind: "external", command: EXAMPLE_TRAINER, timeoutMinutes: 2 },
      "coevolve",
    );
    const done = await waitFor(run.id, 1, ["DONE", "FAILED"]);
    expect(done.error).toBeNull();
    expect(done.status).toBe("DONE");

    const checkpoint = await pool.query<{ uri: string | null; weights: unknown; version: number }>(
      `SELECT uri, weights, version FROM "PolicyCheckpoint" WHERE "generationId" = $1`,
      [done.id],
    );
    expect(checkpoint.rows[0]!.uri).toMatch(/^file:\/\/.*\/checkpoint\.json$/);
    expect(checkpoint.rows[0]!.weights).toBeNull();
    expect(checkpoint.rows[0]!.version).toBe(1);

    const memory = await runInMemory({ ...config, trainer: "builtin-grpo", rounds: 1 });
    const heldout = await pool.query<{
      success: number;
      report: { external: boolean; checkpointVersion: string };
    }>(
      `SELECT (heldout ->> 'success')::float8 AS success, "trainReport" AS report FROM "Generation" WHERE id = $1`,
      [done.id],
    );
    expect(heldout.rows[0]!.success).toBe(memory.result.heldout[1]!.success);
    expect(heldout.rows[0]!.report).toMatchObject({
      external: true,
      checkpointVersion: "example-grpo-1",
    });
    const poolKeys = await pool.query<{ key: string }>(
      `SELECT t.key FROM "PoolEntry" p JOIN "Task" t ON t.id = p."taskId"
        WHERE p."generationId" = $1 ORDER BY p.position`,
      [done.id],
    );
    expect(poolKeys.rows.map((row) => row.key)).toEqual(memory.state.pool);
  });

  it("waits visibly, serves the data, and refuses bad tokens, bad bodies and reused tokens", async () => {
    const { run } = await startRound(
      { kind: "external", webhook: { url: webhookUrl }, timeoutMinutes: 10 },
      "static",
    );
    const call = await nextWebhookCall(webhookCalls.length + 1);
    expect(call.format).toBe(TRAINING_DATA_FORMAT);
    expect(call.generation).toBe(1);
    expect(call.callbackUrl).toBe(`${appUrl}/api/runs/${run.slug}/generations/1/checkpoint`);
    expect(call.token).toMatch(/^cvt_/);

    const gen = await generation(run.id, 1);
    expect(gen).toMatchObject({ status: "RUNNING", stage: "TRAIN" });
    const progress = await getRunProgress({
      run: { id: run.id, slug: run.slug, status: "ACTIVE", mode: "STATIC" },
      db: pool,
    });
    const train = progress.generations[0]!.stages.find((s) => s.stage === "TRAIN")!;
    expect(train).toMatchObject({ state: "waiting", waitingFor: "external trainer" });
    expect(new Date(train.deadline!).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(JSON.stringify(progress)).not.toContain(call.token);
    const stored = await pool.query(
      `SELECT "tokenHash" FROM "TrainerCallback" WHERE "generationId" = $1`,
      [gen.id],
    );
    expect(stored.rows[0]!.tokenHash).not.toContain(call.token);

    // The data file, over HTTP with the token: one line per training trajectory (12 tasks × 4).
    const unauthorizedData = await fetch(call.trainingData.url);
    expect(unauthorizedData.status).toBe(401);
    const data = await fetch(call.trainingData.url, {
      headers: { authorization: `Bearer ${call.token}` },
    });
    expect(data.status).toBe(200);
    const lines = (await data.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(12 * 4);
    expect(call.trainingData.lines).toBe(48);
    expect(lines[0]).toMatchObject({ format: TRAINING_DATA_FORMAT, group: 0, sampleIndex: 0 });
    // The same conversation format as the dataset export (system prompt, then the instruction).
    expect((lines[0]!.messages as { role: string }[]).slice(0, 2).map((m) => m.role)).toEqual([
      "system",
      "user",
    ]);
    const advantageSums = new Map<unknown, number>();
    for (const line of lines) {
      advantageSums.set(
        line.group,
        (advantageSums.get(line.group) ?? 0) + (line.advantage as number),
      );
    }
    expect(advantageSums.size).toBe(12);
    for (const sum of advantageSums.values()) expect(Math.abs(sum)).toBeLessThan(1e-9);

    const url = call.callbackUrl;
    const good = { uri: call.currentCheckpoint.uri, version: "step-7", metrics: { loss: 0.5 } };
    expect(await post(url, null, good)).toMatchObject({ status: 401 });
    expect(await post(url, "cvt_not-a-real-token", good)).toMatchObject({
      status: 403,
      json: { error: "This token is not valid." },
    });
    expect(
      await post(url.replace("/generations/1/", "/generations/2/"), call.token, good),
    ).toMatchObject({
      status: 403,
      json: { error: "This token was issued for another generation." },
    });
    expect(await post(url, call.token, "{not json")).toMatchObject({ status: 422 });
    const invalid = await post(url, call.token, {
      uri: "checkpoint.json",
      metrics: { loss: "low" },
      extra: 1,
    });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.json.issues as object).sort()).toEqual(["metrics", "uri"]);
    const both = await post(url, call.token, {
      uri: "s3://b/c",
      endpoint: { baseUrl: "http://x", model: "m" },
    });
    expect(both).toMatchObject({
      status: 422,
      json: { issues: { uri: ["report exactly one of uri or endpoint"] } },
    });
    const badEndpoint = await post(url, call.token, { endpoint: { baseUrl: "ftp://x" } });
    expect(Object.keys(badEndpoint.json.issues as object)).toEqual(["endpoint"]);
    const missingFile = await post(url, call.token, { uri: `file://${dataDir}/nothing.json` });
    expect(missingFile.status).toBe(422);
    expect((missingFile.json.issues as { uri: string[] }).uri[0]).toMatch(/cannot read checkpoint/);
    // None of the refusals moved the round.
    expect(await generation(run.id, 1)).toMatchObject({ status: "RUNNING", stage: "TRAIN" });

    // The current policy reported as the new one: valid, so the round goes on and finishes.
    expect(await post(url, call.token, good)).toMatchObject({
      status: 200,
      json: { generation: 1, stage: "EVALUATE" },
    });
    expect(await post(url, call.token, good)).toMatchObject({
      status: 403,
      json: { error: "This token was already used." },
    });
    expect(await waitFor(run.id, 1, ["DONE", "FAILED"])).toMatchObject({
      status: "DONE",
      error: null,
    });
    const report = await pool.query(`SELECT "trainReport" AS r FROM "Generation" WHERE id = $1`, [
      gen.id,
    ]);
    expect(report.rows[0]!.r).toMatchObject({
      external: true,
      checkpointVersion: "step-7",
      metrics: { loss: 0.5 },
    });
  });

  it("refuses a report after the round was cancelled, and a resumed round gets a new token", async () => {
    const { run } = await startRound(
      { kind: "external", webhook: { url: webhookUrl }, timeoutMinutes: 10 },
      "static",
    );
    const first = await nextWebhookCall(webhookCalls.length + 1);
    await cancelRound(ctx(), { runId: run.id });
    const late = await post(first.callbackUrl, first.token, { uri: first.currentCheckpoint.uri });
    expect(late.status).toBe(409);
    expect(late.json.error).toMatch(/not waiting/);
    expect(await generation(run.id, 1)).toMatchObject({ status: "CANCELLED" });

    await launchRound(ctx(), { runId: run.id });
    const second = await nextWebhookCall(webhookCalls.length + 1);
    expect(second.token).not.toBe(first.token);
    expect(second.attempt).toBe(first.attempt + 1);
    expect(
      await post(first.callbackUrl, first.token, { uri: first.currentCheckpoint.uri }),
    ).toMatchObject({
      status: 409,
    });
    expect(
      await post(second.callbackUrl, second.token, { uri: second.currentCheckpoint.uri }),
    ).toMatchObject({
      status: 200,
    });
    expect(await waitFor(run.id, 1, ["DONE", "FAILED"])).toMatchObject({ status: "DONE" });
  });

  it("times out cleanly, refuses the late report, and a retry issues a new token that works", async () => {
    const envFile = path.join(dataDir, "timeout-env-1.json");
    const { run } = await startRound(
      { kind: "external", command: captureCommand(envFile), timeoutMinutes: 0.05 },
      "static",
    );
    const env = await capturedEnv(envFile);
    // The trainer gets its job and token, never the worker's own secrets.
    expect(env.COEVOLVE_CALLBACK_TOKEN).toMatch(/^cvt_/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(
      Object.keys(env)
        .filter((name) => name.startsWith("COEVOLVE_"))
        .sort(),
    ).toEqual([
      "COEVOLVE_CALLBACK_TOKEN",
      "COEVOLVE_CALLBACK_URL",
      "COEVOLVE_DEADLINE",
      "COEVOLVE_GENERATION",
      "COEVOLVE_JOB",
      "COEVOLVE_OUTPUT_DIR",
      "COEVOLVE_TRAINING_DATA",
    ]);
    expect(fs.statSync(env.COEVOLVE_JOB!).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(env.COEVOLVE_JOB!, "utf8")).not.toContain(env.COEVOLVE_CALLBACK_TOKEN!);

    const failed = await waitFor(run.id, 1, ["FAILED", "DONE"]);
    expect(failed).toMatchObject({
      status: "FAILED",
      stage: "TRAIN",
      error: "TRAIN: external trainer did not report a checkpoint within 3 seconds",
    });
    const job = JSON.parse(fs.readFileSync(env.COEVOLVE_JOB!, "utf8")) as TrainingJobManifest;
    const late = await post(env.COEVOLVE_CALLBACK_URL!, env.COEVOLVE_CALLBACK_TOKEN!, {
      uri: job.currentCheckpoint.uri,
    });
    expect(late.status).toBe(409);
    expect(await generation(run.id, 1)).toMatchObject({ status: "FAILED" });

    // The retry runs the same command: it writes a new capture file, with a new token.
    fs.rmSync(envFile);
    await retryRound(ctx(), { runId: run.id });
    const retried = await capturedEnv(envFile);
    expect(retried.COEVOLVE_CALLBACK_TOKEN).not.toBe(env.COEVOLVE_CALLBACK_TOKEN);
    const report = await post(retried.COEVOLVE_CALLBACK_URL!, retried.COEVOLVE_CALLBACK_TOKEN!, {
      uri: job.currentCheckpoint.uri,
    });
    expect(report.status).toBe(200);
    expect(await waitFor(run.id, 1, ["DONE", "FAILED"])).toMatchObject({ status: "DONE" });
  });

  it("fails the round with the trainer's own words when the command fails or cannot start", async () => {
    const { run } = await startRound(
      {
        kind: "external",
        command: [process.execPath, "-e", "console.error('out of GPU memory'); process.exit(3)"],
        timeoutMinutes: 10,
      },
      "static",
    );
    expect(await waitFor(run.id, 1, ["FAILED", "DONE"])).toMatchObject({
      stage: "TRAIN",
      error: "TRAIN: trainer command exited with code 3: out of GPU memory",
    });

    const missing = await startRound(
      { kind: "external", command: ["/nonexistent/verl-submit", "--x"], timeoutMinutes: 10 },
      "static",
    );
    const failed = await waitFor(missing.run.id, 1, ["FAILED", "DONE"]);
    expect(failed.error).toMatch(
      /^TRAIN: could not start trainer command "\/nonexistent\/verl-submit": .*ENOENT/,
    );
  });

  it("sends a webhook connection's key as its bearer token and nowhere else", async () => {
    const apiKey = "rk-ray-PLAINTEXT-webhook-key-93Xf";
    await createConnection(
      pool,
      ConnectionInputSchema.parse({
        name: "ray-webhook",
        kind: "trainer-webhook",
        baseUrl: webhookUrl,
        apiKey,
        runId: "",
      }),
      secretKey,
    );
    const { run } = await startRound(
      {
        kind: "external",
        webhook: { url: webhookUrl, connection: "ray-webhook" },
        timeoutMinutes: 10,
      },
      "static",
    );
    const body = await nextWebhookCall(webhookCalls.length + 1);
    expect(webhookCalls.at(-1)!.authorization).toBe(`Bearer ${apiKey}`);
    expect(JSON.stringify(body)).not.toContain(apiKey);
    const progress = await getRunProgress({
      run: { id: run.id, slug: run.slug, status: "ACTIVE", mode: "STATIC" },
      db: pool,
    });
    expect(JSON.stringify(progress)).not.toContain(apiKey);
    const stored = await pool.query<{ text: string }>(
      `SELECT (SELECT string_agg(row_to_json(c)::text, '') FROM "Connection" c)
              || (SELECT config::text FROM "Run" WHERE id = $1)
              || (SELECT progress::text FROM "Generation" WHERE "runId" = $1 AND index = 1) AS text`,
      [run.id],
    );
    expect(stored.rows[0]!.text).not.toContain(apiKey);
    expect(fs.readFileSync(path.join(body.outputDir, "job.json"), "utf8")).not.toContain(apiKey);
    expect(
      await post(body.callbackUrl, body.token, { uri: body.currentCheckpoint.uri }),
    ).toMatchObject({
      status: 200,
    });
    expect(await waitFor(run.id, 1, ["DONE", "FAILED"])).toMatchObject({ status: "DONE" });
  });

  it("fails the round clearly when the webhook's connection does not exist", async () => {
    const { run } = await startRound(
      { kind: "external", webhook: { url: webhookUrl, connection: "nope" }, timeoutMinutes: 10 },
      "static",
    );
    expect(await waitFor(run.id, 1, ["FAILED", "DONE"])).toMatchObject({
      stage: "TRAIN",
      error: 'TRAIN: no connection named "nope" (add it under Settings → Connections)',
    });
  });
});

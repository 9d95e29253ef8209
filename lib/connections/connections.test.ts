import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createConnection, deleteConnection } from "@/lib/db/mutations/connections";
import { listConnections } from "@/lib/db/queries/connections";
import { parseEnv } from "@/lib/env";
import { ConnectionInputSchema } from "@/lib/validations/connection";
import { testDatabaseUrl } from "@/tests/support/db";
import { resolveConnectionSecret } from "./resolve";
import { loadSecretKey, openSecret, sealSecret, secretHint } from "./secret-box";

vi.mock("server-only", () => ({}));

const API_KEY = "sk-live-Zq81xPLAINTEXTsecret-7Hd2";
const secretKey = randomBytes(32);
let pool: Pool;
let runId: number;
const suffix = randomBytes(3).toString("hex");

beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO "Run" (slug, name, mode, environment, agent, seed, config, "updatedAt")
     VALUES ($1, 'Connections', 'STATIC', 'toolworld', 'builtin', 1, '{}', now()) RETURNING id`,
    [`connections-${suffix}`],
  );
  runId = rows[0]!.id;
});

afterAll(async () => {
  await pool.query(`DELETE FROM "Run" WHERE id = $1`, [runId]);
  await pool.query(`DELETE FROM "Connection" WHERE name LIKE $1`, [`%-${suffix}`]);
  await pool.end();
});

const input = (fields: Record<string, unknown>) => ConnectionInputSchema.parse(fields);

describe("secret box", () => {
  it("seals with AES-256-GCM: the box hides the key, the right key opens it, a wrong one says so", () => {
    const box = sealSecret(API_KEY, secretKey);
    expect(box).toMatch(/^v1\./);
    expect(box).not.toContain(API_KEY);
    expect(sealSecret(API_KEY, secretKey)).not.toBe(box); // a fresh IV every time
    expect(openSecret(box, secretKey)).toBe(API_KEY);
    let message = "";
    try {
      openSecret(box, randomBytes(32));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/cannot be decrypted: COEVOLVE_SECRET_KEY .* changed/);
    expect(message).not.toContain(API_KEY);
    expect(() => openSecret(`${box.slice(0, -4)}AAAA`, secretKey)).toThrow(/cannot be decrypted/);
    expect(secretHint(API_KEY)).toBe("…7Hd2");
    expect(secretHint("short")).toBe("…");
  });

  it("creates a 0600 key file in the data dir when COEVOLVE_SECRET_KEY is unset, and reuses it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-key-"));
    try {
      const env = parseEnv({ NODE_ENV: "test", COEVOLVE_DATA_DIR: dir });
      const first = loadSecretKey(env);
      expect(first).toHaveLength(32);
      expect(fs.statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
      expect(loadSecretKey(env).equals(first)).toBe(true);
      const hex = randomBytes(32).toString("hex");
      expect(
        loadSecretKey(parseEnv({ NODE_ENV: "test", COEVOLVE_SECRET_KEY: hex })).toString("hex"),
      ).toBe(hex);
      expect(() =>
        loadSecretKey(parseEnv({ NODE_ENV: "test", COEVOLVE_SECRET_KEY: "too-short" })),
      ).toThrow("COEVOLVE_SECRET_KEY must be 32 bytes, written as 64 hex characters or base64");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("connections", () => {
  it("stores only the sealed key and its hint; lists never carry the key", async () => {
    const saved = await createConnection(
      pool,
      input({
        name: `vllm-${suffix}`,
        kind: "openai",
        baseUrl: "http://localhost:8000/v1",
        model: "qwen2.5-7b",
        apiKey: API_KEY,
        runId: "",
      }),
      secretKey,
    );
    expect(saved.apiKeyHint).toBe("…7Hd2");
    const row = await pool.query<{ text: string }>(
      `SELECT row_to_json(c)::text AS text FROM "Connection" c WHERE id = $1`,
      [saved.id],
    );
    expect(row.rows[0]!.text).not.toContain(API_KEY);
    expect(row.rows[0]!.text).not.toContain("PLAINTEXT");

    const listed = (await listConnections({ db: pool })).find((c) => c.id === saved.id)!;
    expect(listed).toMatchObject({
      kind: "openai",
      apiKeyHint: "…7Hd2",
      hasApiKey: true,
      runSlug: null,
    });
    const json = JSON.stringify(await listConnections({ db: pool }));
    expect(json).not.toContain(API_KEY);
    expect(json).not.toContain("v1."); // not even the sealed box
    await deleteConnection(pool, { id: saved.id });
    await expect(deleteConnection(pool, { id: saved.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("resolves the key for the worker, a run's own connection first", async () => {
    const name = `trainer-${suffix}`;
    const common = { name, kind: "trainer-webhook", baseUrl: "https://ray.example.com" };
    await createConnection(pool, input({ ...common, apiKey: "workspace-key-0001" }), secretKey);
    await createConnection(
      pool,
      input({ ...common, apiKey: "run-key-000000002", runId: String(runId) }),
      secretKey,
    );
    await expect(
      createConnection(pool, input({ ...common, apiKey: "again-key-00003" }), secretKey),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: `A connection named "${name}" already exists in the workspace; delete it first to replace it.`,
    });

    const own = await resolveConnectionSecret(pool, {
      name,
      runId,
      sendTo: "https://ray.example.com/jobs",
      secretKey,
    });
    expect(own).toMatchObject({ kind: "trainer-webhook", apiKey: "run-key-000000002" });
    const other = await resolveConnectionSecret(pool, {
      name,
      runId: runId + 100000,
      sendTo: "https://ray.example.com/jobs",
      secretKey,
    });
    expect(other.apiKey).toBe("workspace-key-0001");
    await expect(
      resolveConnectionSecret(pool, {
        name,
        runId,
        kind: "openai",
        sendTo: "https://ray.example.com",
        secretKey,
      }),
    ).rejects.toThrow(`connection "${name}" is a trainer-webhook connection, not openai`);
    // The key goes only to the connection's own server, whatever URL a run config names.
    await expect(
      resolveConnectionSecret(pool, {
        name,
        runId,
        sendTo: "https://attacker.example/x",
        secretKey,
      }),
    ).rejects.toThrow(
      `connection "${name}" holds the key for https://ray.example.com, not for https://attacker.example`,
    );
    await expect(
      resolveConnectionSecret(pool, {
        name: `missing-${suffix}`,
        runId,
        sendTo: "https://ray.example.com",
        secretKey,
      }),
    ).rejects.toThrow(/no connection named "missing-.*" \(add it under Settings → Connections\)/);
  });

  it("refuses bad input field by field", () => {
    const result = ConnectionInputSchema.safeParse({
      name: "has space",
      kind: "smtp",
      baseUrl: "ftp://x",
      runId: "abc",
    });
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((issue) => issue.path.join("."));
    expect(fields.sort()).toEqual(["baseUrl", "kind", "name", "runId"]);
  });
});

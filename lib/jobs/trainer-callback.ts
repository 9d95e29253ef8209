import fs from "node:fs";
import type PgBoss from "pg-boss";
import type { Pool } from "pg";
import { z } from "zod";
import { withTransaction } from "@/lib/db/transaction";
import { parseRunConfig } from "@/lib/validations/run-config";
import { ENDPOINT_CHECKPOINT_KIND, readCheckpointUri } from "./checkpoint-uri";
import { hashCallbackToken } from "./external-trainer";
import { advance } from "./rounds";

/**
 * The web app's side of an external trainer: it authenticates the trainer by its one-time token,
 * serves the training data, and takes the checkpoint report. A report stores the checkpoint and
 * moves the round on to EVALUATE in one transaction, guarded like every stage commit, so a report
 * after a timeout, a cancel or a retry changes nothing.
 */

export type CallbackContext = { pool: Pool; boss: PgBoss };

export type CallbackResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      status: 401 | 403 | 404 | 409 | 422;
      error: string;
      issues?: Record<string, string[] | undefined>;
    };

const hasScheme = (uri: string) => /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(uri);

export const CheckpointReportSchema = z
  .strictObject({
    /** Where the checkpoint is: file:// and http(s):// are loaded by the builtin agent. */
    uri: z
      .string()
      .max(2000, "uri is at most 2000 characters")
      .refine(hasScheme, "uri must be an absolute URI such as file:///… or s3://…")
      .optional(),
    /** An OpenAI-compatible server that serves the new policy. */
    endpoint: z
      .strictObject({
        baseUrl: z.url({ protocol: /^https?$/, error: "endpoint.baseUrl must be an http(s) URL" }),
        model: z.string().min(1, "endpoint.model is required").max(200),
      })
      .optional(),
    /** The trainer's own name for the checkpoint (a step number, a tag). */
    version: z.union([z.string().max(200), z.number()]).optional(),
    metrics: z.record(z.string().max(100), z.number()).optional(),
  })
  .refine((r) => (r.uri === undefined) !== (r.endpoint === undefined), {
    message: "report exactly one of uri or endpoint",
    path: ["uri"],
  });

export type CheckpointReport = z.infer<typeof CheckpointReportSchema>;

/** What the route passes when the body is not JSON at all. */
export const INVALID_JSON = Symbol("invalid JSON");

/** The bearer token of an Authorization header; null when there is none. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

type IssuedCall = {
  callId: number;
  generationId: number;
  runId: number;
  index: number;
  issuedFor: number;
  attempt: number;
  status: string;
  stage: string;
  config: unknown;
  dataPath: string;
  usedAt: Date | null;
  isExpired: boolean;
};

function refuse(status: 401 | 403 | 404 | 409 | 422, error: string): CallbackResult<never> {
  return { ok: false, status, error };
}

/**
 * Checks the token against the generation the URL names: 401 without a token, 403 for a token
 * that is unknown, for another generation, used or expired, 409 when the generation is no longer
 * waiting for this attempt's report.
 */
async function authenticate(
  pool: Pool,
  input: { slug: string; index: number; token: string | null },
): Promise<CallbackResult<IssuedCall>> {
  if (!input.token) return refuse(401, "A bearer token is required (Authorization: Bearer …).");
  const { rows } = await pool.query<IssuedCall & { slug: string }>(
    `SELECT c.id AS "callId", g.id AS "generationId", g."runId", g.index, c.attempt AS "issuedFor",
            g.attempt, g.status, g.stage, r.config, r.slug, c."dataPath", c."usedAt",
            c.deadline <= now() AS "isExpired"
       FROM "TrainerCallback" c
       JOIN "Generation" g ON g.id = c."generationId"
       JOIN "Run" r ON r.id = g."runId"
      WHERE c."tokenHash" = $1`,
    [hashCallbackToken(input.token)],
  );
  const call = rows[0];
  if (!call) return refuse(403, "This token is not valid.");
  if (call.slug !== input.slug || call.index !== input.index) {
    return refuse(403, "This token was issued for another generation.");
  }
  if (call.usedAt) return refuse(403, "This token was already used.");
  if (call.attempt !== call.issuedFor || call.status !== "RUNNING" || call.stage !== "TRAIN") {
    return refuse(
      409,
      `Generation ${call.index} is not waiting for this trainer's checkpoint (it is ${call.status.toLowerCase()}${call.attempt !== call.issuedFor ? " and was retried" : ""}).`,
    );
  }
  if (call.isExpired) return refuse(403, "This token has expired: the trainer's deadline passed.");
  return { ok: true, value: call };
}

/** GET …/training-data: the JSONL file, for trainers that cannot read the worker's disk. */
export async function openTrainingData(
  ctx: Pick<CallbackContext, "pool">,
  input: { slug: string; index: number; token: string | null },
): Promise<CallbackResult<{ stream: fs.ReadStream; bytes: number }>> {
  const auth = await authenticate(ctx.pool, input);
  if (!auth.ok) return auth;
  let bytes: number;
  try {
    bytes = fs.statSync(auth.value.dataPath).size;
  } catch {
    return refuse(404, "The training data file is not on this server's disk.");
  }
  return { ok: true, value: { stream: fs.createReadStream(auth.value.dataPath), bytes } };
}

/** POST …/checkpoint: stores the reported checkpoint and moves the round on to EVALUATE. */
export async function reportCheckpoint(
  ctx: CallbackContext,
  input: { slug: string; index: number; token: string | null; body: unknown },
): Promise<CallbackResult<{ generation: number; stage: "EVALUATE" }>> {
  const auth = await authenticate(ctx.pool, input);
  if (!auth.ok) return auth;
  const call = auth.value;
  if (input.body === INVALID_JSON) {
    return refuse(422, "The body must be a JSON object: { uri | endpoint, version?, metrics? }.");
  }
  const parsed = CheckpointReportSchema.safeParse(input.body);
  if (!parsed.success) {
    return {
      ok: false,
      status: 422,
      error: "Invalid checkpoint report",
      issues: z.flattenError(parsed.error).fieldErrors,
    };
  }
  const report = parsed.data;
  let weights = null;
  if (report.endpoint) {
    weights = {
      kind: ENDPOINT_CHECKPOINT_KIND,
      version: call.index,
      payload: { baseUrl: report.endpoint.baseUrl, model: report.endpoint.model },
    };
  } else if (report.uri!.startsWith("file://")) {
    // Checked now, while the trainer can still fix it, rather than when evaluation fails.
    try {
      await readCheckpointUri(report.uri!, call.index);
    } catch (error) {
      return {
        ok: false,
        status: 422,
        error: "Invalid checkpoint report",
        issues: { uri: [error instanceof Error ? error.message : String(error)] },
      };
    }
  }
  const uri = report.uri ?? report.endpoint!.baseUrl;
  const config = parseRunConfig(call.config);

  return withTransaction(ctx.pool, async (client) => {
    const locked = await client.query(
      `SELECT 1 FROM "Generation" WHERE id = $1 AND attempt = $2 AND status = 'RUNNING'
          AND stage = 'TRAIN' FOR UPDATE`,
      [call.generationId, call.issuedFor],
    );
    if (locked.rowCount !== 1) {
      return refuse(409, `Generation ${call.index} is no longer waiting for a checkpoint.`);
    }
    const used = await client.query(
      `UPDATE "TrainerCallback" SET "usedAt" = now() WHERE id = $1 AND "usedAt" IS NULL`,
      [call.callId],
    );
    if (used.rowCount !== 1) return refuse(403, "This token was already used.");
    await client.query(
      `INSERT INTO "PolicyCheckpoint" ("runId", "generationId", version, weights, uri)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("generationId") DO UPDATE SET weights = EXCLUDED.weights, uri = EXCLUDED.uri`,
      [call.runId, call.generationId, call.index, weights && JSON.stringify(weights), uri],
    );
    await client.query(
      `UPDATE "Generation" g SET "policyVersion" = $2, "trainReport" = jsonb_build_object(
          'external', true, 'checkpointVersion', $3::jsonb, 'metrics', $4::jsonb,
          'trainPassRate', (SELECT coalesce(avg(tr.success::int), 0)::float8 FROM "Trajectory" tr
                              JOIN "Generation" p ON p.id = tr."generationId"
                             WHERE p."runId" = g."runId" AND p.index = g.index - 1
                               AND tr.purpose = 'TRAIN'))
        WHERE g.id = $1`,
      [
        call.generationId,
        call.index,
        JSON.stringify(report.version ?? null),
        JSON.stringify(report.metrics ?? {}),
      ],
    );
    const moved = await advance(
      client,
      ctx,
      {
        id: call.generationId,
        runId: call.runId,
        index: call.index,
        attempt: call.issuedFor,
        config,
      },
      "TRAIN",
      { extra: { waiting: null } },
    );
    if (!moved) throw new Error("the generation moved on while it was locked");
    return { ok: true as const, value: { generation: call.index, stage: "EVALUATE" as const } };
  });
}

import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { TrainingGroup } from "@/lib/engine/interfaces";
import { getEnv, type Env } from "@/lib/env";
import { groupAdvantages } from "@/lib/engine/trainers/advantages";
import { toChatMessages, type ChatMessage } from "@/lib/export/chat-format";
import type { PolicyCheckpoint, Task, Trajectory } from "@/lib/engine/types";
import type { ExternalTrainerConfig, RunConfig } from "@/lib/validations/run-config";

/**
 * The worker's side of an external trainer: the files a trainer reads, the one-time callback
 * token, and starting the trainer (a command or a webhook). The stage machine that waits for the
 * report lives in rounds.ts; the report itself arrives through trainer-callback.ts.
 */

/** Version tag of the files below; a trainer checks it before reading. */
export const TRAINING_DATA_FORMAT = "coevolve-grpo-jsonl/v1";

/** One line of the training data file: one trajectory of one GRPO group. */
export type TrainingDataLine = {
  format: typeof TRAINING_DATA_FORMAT;
  /** Position of the group in the round (groups in this order reproduce the builtin trainer). */
  group: number;
  taskId: string;
  sampleIndex: number;
  reward: number;
  /** Group-normalized advantage: (reward − group mean) / group std, 0 for a flat group. */
  advantage: number;
  /** The episode as OpenAI chat messages with tool calls, exactly as `npm run export` writes it. */
  messages: ChatMessage[];
  /** The engine's own records, so a trainer built on lib/engine can rebuild the TrainingGroup. */
  task: Task;
  trajectory: Trajectory;
};

export function* trainingDataLines(groups: readonly TrainingGroup[]): Generator<TrainingDataLine> {
  for (const [group, { task, trajectories }] of groups.entries()) {
    const advantages = groupAdvantages(trajectories.map((t) => t.reward));
    for (const [i, trajectory] of trajectories.entries()) {
      yield {
        format: TRAINING_DATA_FORMAT,
        group,
        taskId: task.id,
        sampleIndex: trajectory.sampleIndex,
        reward: trajectory.reward,
        advantage: advantages[i]!,
        messages: toChatMessages({
          instruction: task.instruction,
          steps: trajectory.steps,
          answer: trajectory.answer,
        }),
        task,
        trajectory,
      };
    }
  }
}

/** Writes the round's training data as JSONL (one trajectory a line), streamed to disk. */
export async function writeTrainingData(
  file: string,
  groups: readonly TrainingGroup[],
): Promise<{ lines: number; bytes: number }> {
  // Written beside and renamed into place: a duplicate delivery of the same attempt rewriting the
  // file never truncates the one a started trainer is reading.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.partial`;
  const stream = fs.createWriteStream(partial, { mode: 0o600 });
  let lines = 0;
  for (const line of trainingDataLines(groups)) {
    if (!stream.write(`${JSON.stringify(line)}\n`)) {
      await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
    }
    lines++;
  }
  await new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.end(() => resolve());
  });
  fs.renameSync(partial, file);
  return { lines, bytes: fs.statSync(file).size };
}

/** Rebuilds the groups from a training data file: what an engine-based trainer does. */
export function readTrainingData(file: string): TrainingGroup[] {
  const groups: TrainingGroup[] = [];
  for (const text of fs.readFileSync(file, "utf8").split("\n")) {
    if (!text) continue;
    const line = JSON.parse(text) as TrainingDataLine;
    if (line.format !== TRAINING_DATA_FORMAT) {
      throw new Error(`unknown training data format ${String(line.format)}`);
    }
    groups[line.group] ??= { task: line.task, trajectories: [] };
    groups[line.group]!.trajectories.push(line.trajectory);
  }
  return groups;
}

/** What the trainer is told, as `job.json` next to the data (the token is never written down). */
export type TrainingJobManifest = {
  format: typeof TRAINING_DATA_FORMAT;
  run: { id: number; slug: string };
  /** The generation the new checkpoint becomes (policy version). */
  generation: number;
  attempt: number;
  groupSize: number;
  trainerSettings: RunConfig["trainerSettings"];
  trainingData: { path: string; url: string; lines: number; bytes: number };
  /** The policy that produced the rollouts, and the base policy (for a KL/L2 anchor). */
  currentCheckpoint: { version: number; uri: string };
  baseCheckpoint: { version: number; uri: string };
  /** Where to write a checkpoint file, if the trainer writes one locally. */
  outputDir: string;
  callbackUrl: string;
  deadline: string;
};

export type TrainingJob = { manifest: TrainingJobManifest; manifestPath: string };

export type ExternalTrainerSetup = {
  /** Root for training data files (under COEVOLVE_DATA_DIR by default). */
  dataDir: string;
  /** Base URL the trainer reaches the web app at (COEVOLVE_PUBLIC_URL). */
  publicUrl: string;
};

export function defaultExternalTrainerSetup(env: Env = getEnv()): ExternalTrainerSetup {
  return {
    dataDir: path.resolve(env.COEVOLVE_DATA_DIR ?? ".data"),
    publicUrl: env.COEVOLVE_PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  };
}

export function checkpointRoute(publicUrl: string, slug: string, generation: number): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/runs/${encodeURIComponent(slug)}/generations/${generation}`;
}

/** Writes data, checkpoints and manifest for one attempt; returns what the trainer is told. */
export async function prepareTrainingJob(options: {
  setup: ExternalTrainerSetup;
  run: { id: number; slug: string };
  generation: number;
  attempt: number;
  config: RunConfig;
  groups: readonly TrainingGroup[];
  /** Checkpoints stored as weights get written out; ones stored as a URI are passed on. */
  current: { checkpoint: PolicyCheckpoint | null; uri: string | null; version: number };
  base: { checkpoint: PolicyCheckpoint | null; uri: string | null; version: number };
  deadline: Date;
}): Promise<TrainingJob> {
  const dir = path.join(
    options.setup.dataDir,
    "external-trainer",
    options.run.slug,
    `gen-${options.generation}-attempt-${options.attempt}`,
  );
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dataPath = path.join(dir, "training-data.jsonl");
  const written = await writeTrainingData(dataPath, options.groups);
  const checkpointUri = (name: string, entry: typeof options.current) => {
    if (entry.uri) return entry.uri;
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(entry.checkpoint), { mode: 0o600 });
    return pathToFileURL(file).href;
  };
  const route = checkpointRoute(options.setup.publicUrl, options.run.slug, options.generation);
  const manifest: TrainingJobManifest = {
    format: TRAINING_DATA_FORMAT,
    run: options.run,
    generation: options.generation,
    attempt: options.attempt,
    groupSize: options.config.groupSize,
    trainerSettings: options.config.trainerSettings,
    trainingData: {
      path: dataPath,
      url: `${route}/training-data`,
      lines: written.lines,
      bytes: written.bytes,
    },
    currentCheckpoint: {
      version: options.current.version,
      uri: checkpointUri("current-checkpoint.json", options.current),
    },
    baseCheckpoint: {
      version: options.base.version,
      uri: checkpointUri("base-checkpoint.json", options.base),
    },
    outputDir: dir,
    callbackUrl: `${route}/checkpoint`,
    deadline: options.deadline.toISOString(),
  };
  const manifestPath = path.join(dir, "job.json");
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2), { mode: 0o600 });
  return { manifest, manifestPath };
}

/** A fresh one-time token and the hash that is stored in its place. */
export function newCallbackToken(): { token: string; hash: string } {
  const token = `cvt_${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashCallbackToken(token) };
}

export function hashCallbackToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** "within 3 seconds", "within 60 minutes": how the timeout reads in the failure message. */
export function describeTimeout(minutes: number): string {
  const seconds = Math.round(minutes * 60);
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const rounded = Math.round(minutes * 10) / 10;
  return `${rounded} minute${rounded === 1 ? "" : "s"}`;
}

/** Variables a command inherits: enough to find programs, nothing of the worker's secrets. */
const INHERITED_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER"] as const;

export type LaunchOutcome = { ok: true } | { ok: false; reason: string };

/**
 * Starts the trainer. A command runs detached from the stage job (the job returns at once, the
 * trainer may run for hours); `onExit` hears a non-zero exit so the round can fail with the
 * trainer's own last words instead of waiting for the timeout. A webhook is one POST.
 */
export async function launchExternalTrainer(options: {
  trainer: ExternalTrainerConfig;
  job: TrainingJob;
  token: string;
  /** The webhook's bearer key from its connection, if it names one. */
  webhookKey?: string | null;
  onExit: (outcome: LaunchOutcome) => void;
}): Promise<LaunchOutcome> {
  const { trainer, job, token } = options;
  const redact = (text: string) => {
    let clean = text.split(token).join("[token]");
    if (options.webhookKey) clean = clean.split(options.webhookKey).join("[key]");
    return clean;
  };
  if (trainer.command) {
    const [program, ...args] = trainer.command;
    const env: Record<string, string> = {};
    for (const name of INHERITED_ENV) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    Object.assign(env, {
      COEVOLVE_JOB: job.manifestPath,
      COEVOLVE_TRAINING_DATA: job.manifest.trainingData.path,
      COEVOLVE_OUTPUT_DIR: job.manifest.outputDir,
      COEVOLVE_CALLBACK_URL: job.manifest.callbackUrl,
      COEVOLVE_CALLBACK_TOKEN: token,
      COEVOLVE_GENERATION: String(job.manifest.generation),
      COEVOLVE_DEADLINE: job.manifest.deadline,
    });
    return new Promise<LaunchOutcome>((resolve) => {
      const child = spawn(program!, args, {
        // Next's types demand NODE_ENV; a trainer gets only the variables chosen above.
        env: env as NodeJS.ProcessEnv,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-2000);
      });
      let isSpawned = false;
      child.once("spawn", () => {
        isSpawned = true;
        resolve({ ok: true });
      });
      child.once("error", (error) => {
        if (isSpawned) return; // the close event reports it
        resolve({
          ok: false,
          reason: `could not start trainer command ${JSON.stringify(program)}: ${error.message}`,
        });
      });
      child.once("close", (code, signal) => {
        if (!isSpawned) return;
        if (code === 0) return options.onExit({ ok: true });
        const tail = redact(stderr.trim()).split("\n").slice(-5).join("\n");
        options.onExit({
          ok: false,
          reason: `trainer command exited with ${code === null ? `signal ${signal}` : `code ${code}`}${tail ? `: ${tail}` : ""}`,
        });
      });
    });
  }
  const webhook = trainer.webhook!;
  try {
    const response = await fetch(webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.webhookKey ? { authorization: `Bearer ${options.webhookKey}` } : {}),
      },
      body: JSON.stringify({ ...job.manifest, token }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) {
      return { ok: false, reason: `trainer webhook answered HTTP ${response.status}` };
    }
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `trainer webhook failed: ${redact(message)}` };
  }
}

/**
 * An external trainer in its own process, the shape a verl or OpenRLHF launcher takes:
 *
 *   trainer: { kind: "external", command: ["node", "--import", "tsx", "scripts/example-external-trainer.ts"] }
 *
 * It reads the job the worker wrote (COEVOLVE_JOB), trains the builtin policy with the engine's
 * GRPO trainer on the exported groups, writes the checkpoint to COEVOLVE_OUTPUT_DIR, and reports
 * it to COEVOLVE_CALLBACK_URL with the one-time COEVOLVE_CALLBACK_TOKEN as `uri: file://…`.
 * A round trained this way equals a round with `trainer: "builtin-grpo"` (lib/jobs tests check).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createToolWorld } from "@/lib/engine/environments/toolworld";
import { createGrpoTrainer } from "@/lib/engine/trainers/grpo";
import { readCheckpointUri } from "@/lib/jobs/checkpoint-uri";
import { readTrainingData, type TrainingJobManifest } from "@/lib/jobs/external-trainer";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run me as an external trainer command`);
  return value;
}

async function main() {
  const job = JSON.parse(fs.readFileSync(required("COEVOLVE_JOB"), "utf8")) as TrainingJobManifest;
  const groups = readTrainingData(required("COEVOLVE_TRAINING_DATA"));
  const [policy, base] = await Promise.all([
    readCheckpointUri(job.currentCheckpoint.uri, job.currentCheckpoint.version),
    readCheckpointUri(job.baseCheckpoint.uri, job.baseCheckpoint.version),
  ]);
  const trained = await createGrpoTrainer(createToolWorld()).train({
    policy,
    base,
    groups,
    settings: job.trainerSettings,
    nextVersion: job.generation,
  });
  const file = path.join(required("COEVOLVE_OUTPUT_DIR"), "checkpoint.json");
  fs.writeFileSync(file, JSON.stringify(trained.policy));

  const response = await fetch(required("COEVOLVE_CALLBACK_URL"), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${required("COEVOLVE_CALLBACK_TOKEN")}`,
    },
    body: JSON.stringify({
      uri: pathToFileURL(file).href,
      version: `example-grpo-${job.generation}`,
      metrics: trained.report,
    }),
  });
  if (!response.ok) {
    throw new Error(`the callback answered HTTP ${response.status}: ${await response.text()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

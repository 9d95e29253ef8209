import type { Pool } from "pg";
import type { Environment } from "@/lib/engine/interfaces";
import { AppError } from "@/lib/errors";
import { resolveRunEnvironment } from "@/lib/jobs/deps";
import { httpEnvironmentOf, type RunConfig } from "@/lib/validations/run-config";

/**
 * The environment a run's tasks belong to, for export and import: the one the worker's rounds
 * use (lib/jobs/deps.ts), so a remote environment serves them the same way. A remote one that
 * cannot be reached or keyed is an UNAVAILABLE error naming its URL; the key never appears
 * (the connector redacts it from every message).
 */
export async function environmentOfRun(options: {
  db: Pick<Pool, "query">;
  runId: number;
  config: Pick<RunConfig, "environment">;
  /** Opens saved API keys; defaults to COEVOLVE_SECRET_KEY or the data dir's key file. */
  secretKey?: Buffer;
}): Promise<Environment> {
  const remote = httpEnvironmentOf(options.config);
  try {
    return await resolveRunEnvironment(options.config, options);
  } catch (error) {
    if (!remote) throw error;
    throw remoteEnvironmentError(remote.baseUrl, error);
  }
}

/** A remote environment that failed mid-way (a call after connecting), as the same clear error. */
export function remoteEnvironmentError(baseUrl: string, error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError("UNAVAILABLE", `Environment ${baseUrl} is not available: ${reason}`, {
    hint: "Check that the environment server is running and its connection (Settings → Connections) is right.",
  });
}

import { createBuiltinDeps } from "@/lib/engine/engine";
import type { Environment } from "@/lib/engine/interfaces";
import { AppError } from "@/lib/errors";
import type { RunConfig } from "@/lib/validations/run-config";

/**
 * The environment a run's tasks belong to, through the same seam the round uses, so a remote
 * environment added there serves import and export too (the id is checked there, not here).
 */
export function resolveEnvironment(environmentId: string): Environment {
  try {
    return createBuiltinDeps({
      mode: "static",
      environment: environmentId as RunConfig["environment"],
      agent: "builtin",
    }).environment;
  } catch (error) {
    throw new AppError("UNAVAILABLE", `Environment ${environmentId} is not available here.`, {
      cause: error,
    });
  }
}

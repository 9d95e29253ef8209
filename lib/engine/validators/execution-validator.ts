import type { Environment, Validator, ValidationRequest, ValidationResult } from "../interfaces";
import { callKey } from "../calls";
import type { Task, ToolCall } from "../types";

export const EXECUTION_VALIDATOR_ID = "builtin-execution";

type Verdict = { reason: string | null; envSteps: number };

const describeCall = (call: ToolCall) => `${call.tool}(${JSON.stringify(call.arguments)})`;

/** The reference must run, every call must be one the agent could choose, and it must pass. */
async function checkReference(environment: Environment, task: Task): Promise<Verdict> {
  const reference = await environment.referenceSolution(task);
  const session = await environment.openEpisode(task);
  let envSteps = 0;
  try {
    for (const [i, call] of reference.entries()) {
      if (session.listCandidates) {
        const offered = (await session.listCandidates()).map(callKey);
        if (!offered.includes(callKey(call))) {
          return {
            reason: `reference step ${i + 1} ${describeCall(call)} is not an action the agent can take`,
            envSteps,
          };
        }
      }
      await session.step(call);
      envSteps++;
    }
    const outcome = await session.score();
    if (!outcome.success) {
      return {
        reason: `reference solution fails its checker: ${outcome.failure ?? "unknown"}`,
        envSteps,
      };
    }
    return { reason: null, envSteps };
  } finally {
    await session.close?.();
  }
}

/** Finishing at once — with no answer or any answer on offer at step 0 — must not pass. */
async function checkTrivial(environment: Environment, task: Task): Promise<Verdict> {
  const probe = await environment.openEpisode(task);
  const attempts: ToolCall[] = [{ tool: "finish", arguments: {} }];
  if (probe.listCandidates) {
    for (const c of await probe.listCandidates()) {
      if (c.tool === "finish" && Object.keys(c.arguments).length > 0) attempts.push(c);
    }
  }
  await probe.close?.();
  let envSteps = 0;
  for (const attempt of attempts) {
    const session = await environment.openEpisode(task);
    try {
      await session.step(attempt);
      envSteps++;
      const outcome = await session.score();
      if (outcome.success) {
        return { reason: `an immediate answer passes: ${describeCall(attempt)}`, envSteps };
      }
    } finally {
      await session.close?.();
    }
  }
  return { reason: null, envSteps };
}

/**
 * Validation by execution. Order: duplicate (cheap), reference passes, reference reachable by the
 * agent, trivial attempt fails. Every rejection keeps its reason.
 */
export function createExecutionValidator(): Validator {
  return {
    id: EXECUTION_VALIDATOR_ID,
    async validate(request: ValidationRequest): Promise<ValidationResult> {
      const seen = new Map<string, string>();
      for (const f of request.knownFingerprints) seen.set(f, "an earlier task");
      const tasks: Task[] = [];
      let envSteps = 0;
      for (const candidate of request.candidates) {
        const earlier = seen.get(candidate.fingerprint);
        let reason: string | null = earlier ? `duplicate of ${earlier}` : null;
        if (reason === null) {
          const reference = await checkReference(request.environment, candidate);
          envSteps += reference.envSteps;
          reason = reference.reason;
        }
        if (reason === null) {
          const trivial = await checkTrivial(request.environment, candidate);
          envSteps += trivial.envSteps;
          reason = trivial.reason;
        }
        if (!earlier) seen.set(candidate.fingerprint, `task ${candidate.id}`);
        tasks.push({
          ...candidate,
          validation: { status: reason === null ? "valid" : "invalid", reason },
        });
      }
      return { tasks, envSteps };
    },
  };
}

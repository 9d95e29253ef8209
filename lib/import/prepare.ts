import type { z } from "zod";
import type { Environment } from "@/lib/engine/interfaces";
import type { Task } from "@/lib/engine/types";
import { createExecutionValidator } from "@/lib/engine/validators/execution-validator";
import { PortableTaskSchema, type ImportFormat } from "./format";
import type { ImportSource } from "./read-lines";
import { readRecords } from "./read-records";

export type ImportError = { line: number; message: string };

/** A task that is already known: elsewhere in the file (`firstLine`) or in the run (`taskId`). */
export type ImportDuplicate =
  | { line: number; fingerprint: string; firstLine: number }
  | { line: number; fingerprint: string; taskId: number };

export type ImportPlan = {
  tasks: { line: number; task: Task }[];
  duplicates: ImportDuplicate[];
  errors: ImportError[];
};

export type PrepareImportOptions = {
  source: ImportSource;
  format: ImportFormat;
  environment: Environment;
  /** Fingerprints of the run's tasks (held-out included) → their database ids. */
  existing: ReadonlyMap<string, number>;
};

/** More lines than this are refused: seed sets are small, and all of it commits as one. */
export const MAX_IMPORT_TASKS = 20_000;

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Reads and checks every line; nothing is written here. A line is an error if it is not a task
 * (zod), not a task of this environment (its spec), or not a valid task (the execution validator
 * that also judges synthesized tasks: the reference solution must be actions the agent can take
 * and pass the checker, and answering at once must not). Duplicates are not errors: they are
 * reported and skipped, so re-importing a file is harmless.
 */
export async function prepareImport(options: PrepareImportOptions): Promise<ImportPlan> {
  const { environment } = options;
  if (!environment.taskFromPortable) {
    return {
      tasks: [],
      duplicates: [],
      errors: [{ line: 0, message: `environment ${environment.id} cannot import tasks` }],
    };
  }
  const errors: ImportError[] = [];
  const duplicates: ImportDuplicate[] = [];
  const candidates: { line: number; task: Task }[] = [];
  const lineByFingerprint = new Map<string, number>();
  let records = 0;
  for await (const record of readRecords(options.source, options.format)) {
    records++;
    if (records > MAX_IMPORT_TASKS) {
      errors.push({
        line: record.line,
        message: `too many tasks: at most ${MAX_IMPORT_TASKS} per file`,
      });
      break;
    }
    if ("error" in record) {
      errors.push({ line: record.line, message: record.error });
      continue;
    }
    const parsed = PortableTaskSchema.safeParse(record.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        errors.push({ line: record.line, message: describeIssue(issue) });
      }
      continue;
    }
    const { instruction, skill, level, spec, reference } = parsed.data;
    const built = await environment.taskFromPortable(
      { instruction, skill, level, spec, reference },
      { origin: "imported", generation: 0, split: "train" },
    );
    if (!built.ok) {
      for (const issue of built.issues) {
        errors.push({ line: record.line, message: `${issue.path}: ${issue.message}` });
      }
      continue;
    }
    const { fingerprint } = built.task;
    const firstLine = lineByFingerprint.get(fingerprint);
    const taskId = options.existing.get(fingerprint);
    if (firstLine !== undefined) {
      duplicates.push({ line: record.line, fingerprint, firstLine });
    } else if (taskId !== undefined) {
      duplicates.push({ line: record.line, fingerprint, taskId });
    } else {
      lineByFingerprint.set(fingerprint, record.line);
      candidates.push({ line: record.line, task: built.task });
    }
  }
  if (records === 0) errors.push({ line: 0, message: "the file has no tasks" });

  const tasks: { line: number; task: Task }[] = [];
  const validator = createExecutionValidator();
  for (const candidate of candidates) {
    let reason: string | null;
    try {
      const { tasks: judged } = await validator.validate({
        candidates: [candidate.task],
        environment,
        knownFingerprints: [],
      });
      reason = judged[0]!.validation.reason;
    } catch (error) {
      // A spec that passes the shape check can still describe a world the environment cannot build.
      reason = `the environment could not run this task (${(error as Error).message})`;
    }
    if (reason === null) {
      tasks.push({
        line: candidate.line,
        task: {
          ...candidate.task,
          validation: { status: "valid", reason: null },
          review: { status: "approved", by: "import", note: "imported seed task" },
        },
      });
    } else {
      errors.push({ line: candidate.line, message: `reference: ${reason}` });
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { tasks, duplicates, errors };
}

export function formatImportError(error: ImportError): string {
  return error.line > 0 ? `line ${error.line}: ${error.message}` : error.message;
}

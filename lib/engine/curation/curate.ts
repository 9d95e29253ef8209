import type { Task } from "../types";

export type ReviewMode = "manual" | "auto" | "auto-band";
export type CurationSettings = { mode: ReviewMode; band: [number, number] };

/**
 * Stage: review decisions for validated candidates. Invalid ones are rejected by the validator
 * (its reason kept); valid ones wait for a person (manual), are approved (auto), or are approved
 * only inside a band of estimated difficulty (auto-band).
 */
export function curateTasks(tasks: readonly Task[], settings: CurationSettings): Task[] {
  return tasks.map((task) => {
    if (task.validation.status !== "valid") {
      return {
        ...task,
        review: { status: "rejected", by: "validator", note: task.validation.reason },
      };
    }
    if (settings.mode === "manual") {
      return { ...task, review: { status: "pending", by: null, note: null } };
    }
    if (settings.mode === "auto-band") {
      const [lo, hi] = settings.band;
      const d = task.estimatedDifficulty;
      if (d < lo || d > hi) {
        return {
          ...task,
          review: {
            status: "rejected",
            by: "auto-band",
            note: `estimated difficulty ${d} outside band [${lo}, ${hi}]`,
          },
        };
      }
      return { ...task, review: { status: "approved", by: "auto-band", note: null } };
    }
    return { ...task, review: { status: "approved", by: "auto", note: null } };
  });
}

/** A person's decision on a pending task (the job layer calls this from the review UI). */
export function reviewTask(
  task: Task,
  decision: "approved" | "rejected",
  by: string,
  note: string | null,
): Task {
  if (task.validation.status !== "valid")
    throw new Error(`task ${task.id} did not pass validation`);
  return { ...task, review: { status: decision, by, note } };
}

import type { TaskFilter } from "@/lib/validations/task-filter";

/**
 * SQL conditions for a task filter, appended to a query whose task table is aliased `t` and whose
 * first parameters are already taken (`firstParam` is the next free $n). Values are always
 * parameters, never spliced into the text.
 */
export function taskFilterSql(
  filter: TaskFilter,
  firstParam: number,
): { conditions: string[]; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  if (filter.skill.length > 0) conditions.push(`t.skill = ANY(${param(filter.skill)}::text[])`);
  if (filter.review.length > 0) {
    conditions.push(`t."reviewStatus" = ANY(${param(filter.review)}::"ReviewStatus"[])`);
  }
  if (filter.validation.length > 0) {
    conditions.push(
      `t."validationStatus" = ANY(${param(filter.validation)}::"ValidationStatus"[])`,
    );
  }
  if (filter.origin.length > 0)
    conditions.push(`t.origin = ANY(${param(filter.origin)}::"TaskOrigin"[])`);
  if (filter.signal.length > 0) {
    const kinds = filter.signal.filter((kind) => kind !== "NONE");
    const parts = kinds.length > 0 ? [`t."signalKind" = ANY(${param(kinds)}::"SignalKind"[])`] : [];
    if (filter.signal.includes("NONE")) parts.push(`t."signalKind" IS NULL`);
    conditions.push(`(${parts.join(" OR ")})`);
  }
  if (filter.minDifficulty !== undefined) {
    conditions.push(`t."estimatedDifficulty" >= ${param(filter.minDifficulty)}`);
  }
  if (filter.maxDifficulty !== undefined) {
    conditions.push(`t."estimatedDifficulty" <= ${param(filter.maxDifficulty)}`);
  }
  if (filter.q) {
    const escaped = filter.q.replace(/[\\%_]/g, (c) => `\\${c}`);
    conditions.push(`t.instruction ILIKE ${param(`%${escaped}%`)}`);
  }
  return { conditions, params };
}

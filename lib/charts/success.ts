import { rateOf, type Rate, type SkillStatPoint, type StatSplit } from "./types";

export type SkillSuccessRow = {
  generation: number;
  /** Per selected skill: successes / attempts over all its levels; null where not attempted. */
  rates: Record<string, Rate>;
  attempts: Record<string, number>;
};

export type SkillSuccessSeries = {
  split: StatSplit;
  /** Every skill the split has statistics for, sorted: what the picker offers. */
  allSkills: string[];
  /** The skills drawn, in allSkills order. */
  skills: string[];
  /** One row per generation that has statistics in this split, oldest first. */
  rows: SkillSuccessRow[];
};

/**
 * Per-skill success across generations for one split. Levels are pooled by summing attempts and
 * successes (not by averaging level rates), so a skill's point is the share of its episodes solved.
 * `skills` null means every skill; unknown skill names are ignored.
 */
export function skillSuccessSeries(
  points: readonly SkillStatPoint[],
  options: { split: StatSplit; skills: readonly string[] | null },
): SkillSuccessSeries {
  const inSplit = points.filter((p) => p.split === options.split);
  const allSkills = [...new Set(inSplit.map((p) => p.skill))].sort();
  const wanted = options.skills === null ? null : new Set(options.skills);
  const skills = allSkills.filter((skill) => wanted === null || wanted.has(skill));
  const totals = new Map<number, Map<string, { attempts: number; successes: number }>>();
  for (const p of inSplit) {
    const bySkill = totals.get(p.generation) ?? new Map();
    totals.set(p.generation, bySkill);
    const cell = bySkill.get(p.skill) ?? { attempts: 0, successes: 0 };
    cell.attempts += p.attempts;
    cell.successes += p.successes;
    bySkill.set(p.skill, cell);
  }
  const rows = [...totals.keys()]
    .sort((a, b) => a - b)
    .map((generation) => {
      const bySkill = totals.get(generation)!;
      const rates: Record<string, Rate> = {};
      const attempts: Record<string, number> = {};
      for (const skill of skills) {
        const cell = bySkill.get(skill);
        rates[skill] = cell ? rateOf(cell.successes, cell.attempts) : null;
        attempts[skill] = cell?.attempts ?? 0;
      }
      return { generation, rates, attempts };
    });
  return { split: options.split, allSkills, skills, rows };
}

export type OverallPoint = { generation: number; rate: number; attempts: number };

/** Overall success per generation (every skill and level pooled), oldest first, per run. */
export function overallSuccessByRun(
  points: readonly SkillStatPoint[],
  split: StatSplit = "HELDOUT",
): Map<number, OverallPoint[]> {
  const sums = new Map<number, Map<number, { attempts: number; successes: number }>>();
  for (const p of points) {
    if (p.split !== split) continue;
    const byGeneration = sums.get(p.runId) ?? new Map();
    sums.set(p.runId, byGeneration);
    const cell = byGeneration.get(p.generation) ?? { attempts: 0, successes: 0 };
    cell.attempts += p.attempts;
    cell.successes += p.successes;
    byGeneration.set(p.generation, cell);
  }
  const result = new Map<number, OverallPoint[]>();
  for (const [runId, byGeneration] of sums) {
    result.set(
      runId,
      [...byGeneration.entries()]
        .filter(([, cell]) => cell.attempts > 0)
        .sort(([a], [b]) => a - b)
        .map(([generation, cell]) => ({
          generation,
          rate: cell.successes / cell.attempts,
          attempts: cell.attempts,
        })),
    );
  }
  return result;
}

export type Breakdown = {
  /** The generation the breakdown is of (the run's latest with statistics); null when none. */
  generation: number | null;
  bySkill: Record<string, Rate>;
  byLevel: Record<string, Rate>;
};

/** One run's success at one generation (default: its latest), by skill and by level. */
export function successBreakdown(
  points: readonly SkillStatPoint[],
  options: { runId: number; split?: StatSplit; generation?: number },
): Breakdown {
  const split = options.split ?? "HELDOUT";
  const own = points.filter((p) => p.runId === options.runId && p.split === split);
  const generation =
    options.generation ?? (own.length ? Math.max(...own.map((p) => p.generation)) : null);
  const at = own.filter((p) => p.generation === generation);
  const pool = (key: (p: SkillStatPoint) => string) => {
    const cells = new Map<string, { attempts: number; successes: number }>();
    for (const p of at) {
      const cell = cells.get(key(p)) ?? { attempts: 0, successes: 0 };
      cell.attempts += p.attempts;
      cell.successes += p.successes;
      cells.set(key(p), cell);
    }
    return Object.fromEntries(
      [...cells.entries()]
        .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
        .map(([k, cell]) => [k, rateOf(cell.successes, cell.attempts)]),
    );
  };
  return {
    generation: at.length ? generation : null,
    bySkill: pool((p) => p.skill),
    byLevel: pool((p) => String(p.level)),
  };
}

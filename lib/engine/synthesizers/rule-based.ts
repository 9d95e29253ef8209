import type { EnvironmentCatalog, TaskRequest } from "../environment-types";
import type { Synthesizer, SynthesisRequest } from "../interfaces";
import { createDerivedRng, deriveSeed } from "../rng";
import type { Signal, SignalKind, Task, TaskRelation } from "../types";
import { allocateBudget } from "./plan";

export const RULE_SYNTHESIZER_ID = "builtin-rules";

type Intent = { skill: string; level: number; relation: TaskRelation; parent: Task | null };

const clampLevel = (level: number) => Math.min(5, Math.max(1, level));

/**
 * What to make for a signal, in order of preference; cycled when a signal gets more than one
 * candidate. Mirrors DESIGN §3.5: fresh-world variants, harder where the agent mostly passes,
 * easier where it always fails, tasks exercising rare tools.
 */
export function planIntents(
  signal: Signal,
  tasksById: Readonly<Record<string, Task>>,
  catalog: EnvironmentCatalog,
  pickIndex: number,
  harderAbove: number,
): Intent[] {
  const parent = signal.taskId ? (tasksById[signal.taskId] ?? null) : null;
  const details = signal.details;
  const variant = (relation: TaskRelation, level: number): Intent | null =>
    signal.skill === null
      ? null
      : { skill: signal.skill, level: clampLevel(level), relation, parent };
  const level = signal.level ?? 1;
  const intents: Array<Intent | null> = [];
  if (signal.kind === "forgetting") {
    intents.push(variant("variant", level));
    if (Number(details.to) === 0 && level > 1) intents.push(variant("easier", level - 1));
  } else if (signal.kind === "boundary") {
    const passRate = Number(details.passRate);
    if (passRate >= harderAbove && level < 5) intents.push(variant("harder", level + 1));
    intents.push(variant("variant", level));
  } else if (details.scope === "cell") {
    const alwaysFails = Number(details.attempts) > 0 && Number(details.successes) === 0;
    // A stepping stone only helps if the level below is not already solved; otherwise practise here.
    const belowIsSolved = level - 1 <= Number(details.frontier);
    if (alwaysFails && level > 1 && !belowIsSolved) intents.push(variant("easier", level - 1));
    intents.push(variant("explore", level));
  } else {
    const cells = cellsUsing(catalog, details);
    if (cells.length > 0) {
      const cell = cells[pickIndex % cells.length]!;
      intents.push({ skill: cell.skill, level: cell.level, relation: "explore", parent: null });
    }
  }
  return intents.filter((i): i is Intent => i !== null);
}

/** The lowest level of each skill whose reference solutions use a rare tool or transition. */
function cellsUsing(catalog: EnvironmentCatalog, details: Signal["details"]) {
  const cells: Array<{ skill: string; level: number }> = [];
  for (const skill of catalog.skills) {
    const table = details.scope === "tool" ? skill.toolsByLevel : skill.transitionsByLevel;
    const needle = String(details.scope === "tool" ? details.tool : details.transition);
    const levels = Object.entries(table)
      .filter(([, list]) => list.includes(needle))
      .map(([level]) => Number(level))
      .sort((a, b) => a - b);
    if (levels.length > 0) cells.push({ skill: skill.id, level: levels[0]! });
  }
  return cells;
}

function byScore(a: Signal, b: Signal) {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The builtin, signal-conditioned synthesizer: splits the budget across signal kinds by weight,
 * walks each kind's signals best-first (round-robin once every signal got one), and asks the
 * environment for a task per intent with a seed derived from (run, generation, signal, index).
 */
export function createRuleSynthesizer(): Synthesizer {
  return {
    id: RULE_SYNTHESIZER_ID,
    async synthesize(request: SynthesisRequest): Promise<Task[]> {
      const catalog = request.environment.describe();
      const present = new Set<SignalKind>(request.signals.map((s) => s.kind));
      const budgets = allocateBudget(request.budget, request.weights, present);
      const out: Task[] = [];
      const perCell = new Map<string, number>();
      for (const kind of ["forgetting", "boundary", "rare"] as const) {
        const signals = request.signals.filter((s) => s.kind === kind).sort(byScore);
        const uses = new Map<string, number>();
        let made = 0;
        let stalled = 0;
        for (let i = 0; made < budgets[kind] && stalled < signals.length; i++) {
          const signal = signals[i % signals.length]!;
          const use = uses.get(signal.id) ?? 0;
          uses.set(signal.id, use + 1);
          const { harderAbove, maxPerCell } = request.options;
          const intents = planIntents(signal, request.tasksById, catalog, use, harderAbove).filter(
            (i) => (perCell.get(`${i.skill}:${i.level}`) ?? 0) < maxPerCell,
          );
          if (intents.length === 0) {
            stalled++;
            continue;
          }
          stalled = 0;
          const intent = intents[use % intents.length]!;
          const cellKey = `${intent.skill}:${intent.level}`;
          perCell.set(cellKey, (perCell.get(cellKey) ?? 0) + 1);
          const requestForTask: TaskRequest = {
            skill: intent.skill,
            level: intent.level,
            seed: deriveSeed("synth", request.runSeed, request.generation, signal.id, use),
            split: "train",
            origin: "synthesized",
            generation: request.generation,
            signal: kind,
            signalId: signal.id,
            parentTaskId: intent.parent?.id ?? null,
            relation: intent.relation,
            triggerTrajectoryId: signal.trajectoryId,
          };
          out.push(await request.environment.generateTask(requestForTask));
          made++;
        }
      }
      return out;
    },
  };
}

export const UNIFORM_SYNTHESIZER_ID = "builtin-uniform";

/** The control: fresh tasks drawn uniformly over skills × levels, blind to every signal. */
export function createUniformSynthesizer(): Synthesizer {
  return {
    id: UNIFORM_SYNTHESIZER_ID,
    async synthesize(request: SynthesisRequest): Promise<Task[]> {
      const catalog = request.environment.describe();
      const cells = catalog.skills.flatMap((s) =>
        s.levels.map((level) => ({ skill: s.id, level })),
      );
      const rng = createDerivedRng("uniform", request.runSeed, request.generation);
      const out: Task[] = [];
      for (let i = 0; i < request.budget; i++) {
        const cell = rng.pick(cells);
        out.push(
          await request.environment.generateTask({
            skill: cell.skill,
            level: cell.level,
            seed: deriveSeed("uniform-task", request.runSeed, request.generation, i),
            split: "train",
            origin: "synthesized",
            generation: request.generation,
            relation: "explore",
          }),
        );
      }
      return out;
    },
  };
}

import { describe, expect, it } from "vitest";
import { callKey } from "../../../calls";
import { createToolWorld, LEVELS, SKILL_IDS } from "..";
import { readSpec } from "../spec";

const world = createToolWorld();
const local = world.local!;
const SEEDS = 200;

describe("ToolWorld skill templates", () => {
  it("has at least 6 skills with levels 1–5 and one composite skill", () => {
    const catalog = world.describe();
    expect(catalog.skills.length).toBeGreaterThanOrEqual(6);
    for (const skill of catalog.skills) expect(skill.levels).toEqual([1, 2, 3, 4, 5]);
    expect(catalog.skills.some((s) => s.composes.length >= 2)).toBe(true);
  });

  for (const skill of SKILL_IDS) {
    for (const level of LEVELS) {
      it(`${skill} level ${level}: the reference passes, is reachable, and an empty attempt fails (${SEEDS} seeds)`, () => {
        const problems: string[] = [];
        for (let seed = 0; seed < SEEDS; seed++) {
          const task = local.generateTask({
            skill,
            level,
            seed,
            split: "train",
            origin: "seed",
            generation: 0,
          });
          if (task.skill !== skill || task.level !== level)
            problems.push(`seed ${seed}: wrong cell`);
          const episode = local.openEpisode(task);
          for (const call of local.referenceSolution(task)) {
            const offered = new Set(episode.view().candidates.map((c) => c.key));
            if (!offered.has(callKey(call)))
              problems.push(`seed ${seed}: ${callKey(call)} not offered`);
            const step = episode.stepSync(call);
            if (step.isError) problems.push(`seed ${seed}: ${JSON.stringify(step.observation)}`);
          }
          const outcome = episode.scoreSync();
          if (!outcome.success)
            problems.push(`seed ${seed}: ${task.instruction} → ${outcome.failure}`);
          const empty = local.openEpisode(task);
          empty.stepSync({ tool: "finish", arguments: {} });
          if (empty.scoreSync().success) problems.push(`seed ${seed}: an empty attempt passes`);
        }
        expect(problems).toEqual([]);
      });
    }
  }

  it("builds tasks whose difficulty grows with level on average", () => {
    for (const skill of SKILL_IDS) {
      const mean = (level: number) => {
        let sum = 0;
        for (let seed = 0; seed < 20; seed++) {
          sum += local.generateTask({
            skill,
            level,
            seed,
            split: "train",
            origin: "seed",
            generation: 0,
          }).estimatedDifficulty;
        }
        return sum / 20;
      };
      expect(mean(5), skill).toBeGreaterThan(mean(1));
    }
  });

  it("rebuilds the same task from its JSON spec", () => {
    const task = local.generateTask({
      skill: "share",
      level: 5,
      seed: 3,
      split: "train",
      origin: "seed",
      generation: 0,
    });
    const copy = JSON.parse(JSON.stringify(task)) as typeof task;
    expect(readSpec(copy)).toEqual(readSpec(task));
    const episode = local.openEpisode(copy);
    for (const call of local.referenceSolution(copy)) episode.stepSync(call);
    expect(episode.scoreSync().success).toBe(true);
    const again = local.generateTask({
      skill: "share",
      level: 5,
      seed: 3,
      split: "train",
      origin: "seed",
      generation: 0,
    });
    expect(again.fingerprint).toBe(task.fingerprint);
  });
});

/**
 * `npm run bench:engine`: environment throughput alone and with the builtin policy.
 *   - tool calls/s: reference solutions replayed straight through the tools (no candidate listing)
 *   - env steps/s: episodes driven by a uniform-random choice among the listed candidate actions
 *   - policy steps/s: the builtin policy choosing (features + softmax + sampling) in the same world
 */
import { playEpisode } from "../lib/engine/agents/builtin/agent";
import { decodeCheckpoint } from "../lib/engine/agents/builtin/checkpoint";
import { createToolWorld, LEVELS, SKILL_IDS } from "../lib/engine/environments/toolworld";
import { createRng, deriveSeed } from "../lib/engine/rng";
import { createBasePolicy } from "../lib/engine/setup";
import type { Task } from "../lib/engine/types";
import { parseRunConfig } from "../lib/validations/run-config";

const BUDGET_MS = 1500;
const environment = createToolWorld();
const local = environment.local!;

const tasks: Task[] = [];
for (const skill of SKILL_IDS) {
  for (const level of LEVELS) {
    for (let i = 0; i < 6; i++) {
      tasks.push(
        local.generateTask({
          skill,
          level,
          seed: deriveSeed("bench", skill, level, i),
          split: "train",
          origin: "seed",
          generation: 0,
        }),
      );
    }
  }
}

function measure(label: string, unit: string, runOnce: (i: number) => number): number {
  for (let i = 0; i < 200; i++) runOnce(i);
  let steps = 0;
  let i = 0;
  const start = performance.now();
  while (performance.now() - start < BUDGET_MS) {
    for (let k = 0; k < 50; k++) steps += runOnce(i++);
  }
  const rate = steps / ((performance.now() - start) / 1000);
  console.log(
    `${label.padEnd(44)} ${Math.round(rate).toLocaleString("en-US").padStart(10)} ${unit}/s`,
  );
  return rate;
}

const calls = measure("tools alone (reference replays)", "calls", (i) => {
  const task = tasks[i % tasks.length]!;
  const episode = local.openEpisode(task);
  const reference = local.referenceSolution(task);
  for (const call of reference) episode.stepSync(call);
  episode.scoreSync();
  return reference.length;
});

const envAlone = measure("environment alone (random candidate choice)", "steps", (i) => {
  const task = tasks[i % tasks.length]!;
  const episode = local.openEpisode(task);
  const rng = createRng(i);
  let steps = 0;
  while (!episode.isDone) {
    const { candidates } = episode.view();
    episode.stepSync(rng.pick(candidates).call);
    steps++;
  }
  episode.scoreSync();
  return steps;
});

const weights = decodeCheckpoint(createBasePolicy(environment, parseRunConfig({})));
const withPolicy = measure("environment + builtin policy", "steps", (i) => {
  const task = tasks[i % tasks.length]!;
  const episode = local.openEpisode(task);
  const result = playEpisode(episode, weights, i, 1);
  episode.scoreSync();
  return result.steps.length;
});

console.log(
  `policy/environment ratio: ${(withPolicy / envAlone).toFixed(2)} (the policy keeps ${((100 * withPolicy) / envAlone).toFixed(0)}% of the environment's step rate)`,
);
console.log(
  `tools/environment ratio: ${(calls / envAlone).toFixed(1)}× (cost of listing candidate actions)`,
);

import type { EnvironmentCatalog, TaskRequest } from "../../environment-types";
import type { Environment, EpisodeSession, LocalEpisode } from "../../interfaces";
import type { Task, ToolCall } from "../../types";
import { ToolWorldEpisode } from "./episode";
import { toolWorldTaskFromPortable } from "./portable";
import { LEVELS, SKILLS } from "./skills";
import { buildToolWorldTask, compileTask, readSpec, TOOLWORLD_ID } from "./spec";
import { listOpenAiTools } from "./tools";

export { TOOLWORLD_ID } from "./spec";
export type { ToolWorldSpec } from "./spec";
export { SKILL_IDS, LEVELS } from "./skills";

/** Transitions of a few sample reference solutions: what a competent agent at this cell does. */
function sampleTransitions(skill: string, level: number): string[] {
  const seen = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const task = buildToolWorldTask({
      skill,
      level,
      seed: 7919 * (i + 1),
      split: "train",
      origin: "seed",
      generation: 0,
    });
    const tools = readSpec(task).reference.map((c) => c.tool);
    for (let j = 1; j < tools.length; j++) seen.add(`${tools[j - 1]}>${tools[j]}`);
  }
  return [...seen].sort();
}

function openLocal(task: Task): LocalEpisode {
  return new ToolWorldEpisode(compileTask(task));
}

function wrapSession(task: Task, episode: LocalEpisode): EpisodeSession {
  return {
    instruction: task.instruction,
    tools: listOpenAiTools(),
    maxSteps: episode.maxSteps,
    step: async (call: ToolCall) => episode.stepSync(call),
    score: async () => episode.scoreSync(),
    listCandidates: async () => episode.view().candidates.map((c) => c.call),
    view: async () => episode.view(),
    local: episode,
  };
}

/** The builtin personal-assistant world: contacts, messages, files, calendar, payments. */
export function createToolWorld(): Environment {
  const catalog: EnvironmentCatalog = {
    id: TOOLWORLD_ID,
    skills: SKILLS.map((s) => ({
      id: s.id,
      description: s.description,
      levels: [...LEVELS],
      toolsByLevel: Object.fromEntries(Object.entries(s.toolsByLevel)),
      transitionsByLevel: Object.fromEntries(
        LEVELS.map((level) => [String(level), sampleTransitions(s.id, level)]),
      ),
      composes: s.composes,
    })),
    tools: listOpenAiTools(),
  };
  const generate = (request: TaskRequest) => buildToolWorldTask(request);
  const reference = (task: Task) => readSpec(task).reference.map((c) => structuredClone(c));
  return {
    id: TOOLWORLD_ID,
    describe: () => catalog,
    tools: () => listOpenAiTools(),
    generateTask: async (request) => generate(request),
    referenceSolution: async (task) => reference(task),
    openEpisode: async (task) => wrapSession(task, openLocal(task)),
    taskFromPortable: toolWorldTaskFromPortable,
    local: { generateTask: generate, openEpisode: openLocal, referenceSolution: reference },
  };
}

import type { SkillTemplate } from "./builder";
import { cleanupSkill } from "./cleanup";
import { lookupSkill } from "./lookup";
import { messageSkill } from "./message";
import { organizeSkill } from "./organize";
import { paySkill } from "./pay";
import { scheduleSkill } from "./schedule";
import { shareSkill } from "./share";

export const SKILLS: readonly SkillTemplate[] = [
  lookupSkill,
  messageSkill,
  organizeSkill,
  cleanupSkill,
  scheduleSkill,
  paySkill,
  shareSkill,
];

export const SKILL_IDS: readonly string[] = SKILLS.map((s) => s.id);
export const LEVELS: readonly number[] = [1, 2, 3, 4, 5];

export function getSkill(id: string): SkillTemplate {
  const skill = SKILLS.find((s) => s.id === id);
  if (!skill) throw new Error(`unknown ToolWorld skill "${id}"`);
  return skill;
}

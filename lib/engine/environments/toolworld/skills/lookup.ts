import { COMPANIES, CITIES, EVENT_TITLES, type ContactField } from "../vocabulary";
import { call, type SkillTemplate, type TemplateOutput, type WorldBuilder } from "./builder";
import type { Rng } from "../../../rng";
import type { Contact } from "../world";

const ANSWER_FIELDS: readonly ContactField[] = ["phone", "email", "city", "company"];
const PRIVATE_FIELDS: readonly ContactField[] = ["phone", "email"];

/** Fetch contacts in order until the one we need: the agent cannot know which one it is sooner. */
function fetchUntil(candidates: readonly Contact[], target: Contact) {
  const sorted = [...candidates].sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  const index = sorted.findIndex((c) => c.id === target.id);
  return sorted.slice(0, index + 1).map((c) => call("get_contact", { contact_id: c.id }));
}

function byName(level: number, rng: Rng, b: WorldBuilder): TemplateOutput {
  const target = b.addContact(b.freshName());
  const distractors = level === 2 ? b.addNameDistractors(target, 2) : [];
  const field = rng.pick(ANSWER_FIELDS);
  return {
    instruction: `What is the ${field} of ${target.name}?`,
    reference: [
      call("find_contacts", { name: target.name }),
      call("get_contact", { contact_id: target.id }),
      call("finish", { answer: target[field] }),
    ],
    expect: { answer: target[field], effects: [] },
    entities: 1,
    distractors: distractors.length,
    isChained: false,
  };
}

function byMeeting(level: number, rng: Rng, b: WorldBuilder): TemplateOutput {
  const target = b.addContact(b.freshName());
  const date = b.freeDate();
  const titles = rng.shuffle(EVENT_TITLES);
  const title = titles[0] as string;
  b.addEvent(title, date, target.id);
  const field = rng.pick(PRIVATE_FIELDS);
  let distractors = 0;
  if (level >= 4) {
    for (let i = 1; i <= 2; i++) {
      const other = b.addContact(b.freshName());
      b.addEvent(titles[i] as string, date, other.id);
      distractors++;
    }
  }
  const instruction =
    level >= 4
      ? `What is the ${field} of the person I am meeting for '${title}' on ${date}?`
      : `What is the ${field} of the person I am meeting on ${date}?`;
  return {
    instruction,
    reference: [
      call("list_events", { date }),
      call("get_contact", { contact_id: target.id }),
      call("finish", { answer: target[field] }),
    ],
    expect: { answer: target[field], effects: [] },
    entities: 1,
    distractors,
    isChained: true,
  };
}

function byCityAndCompany(level: number, rng: Rng, b: WorldBuilder): TemplateOutput {
  const city = rng.pick(CITIES);
  const companies = rng.shuffle(COMPANIES);
  const size = level >= 5 ? 4 : 3;
  const people: Contact[] = [];
  for (let i = 0; i < size; i++) {
    people.push(b.addContact(b.freshName(), { city, company: companies[i] as string }));
  }
  b.isolateCity(city, people);
  const target = rng.pick(people);
  const field = rng.pick(PRIVATE_FIELDS);
  const company = target.company;
  return {
    instruction: `What is the ${field} of the person in ${city} who works at ${company}?`,
    reference: [
      call("find_contacts", { city }),
      ...fetchUntil(people, target),
      call("finish", { answer: target[field] }),
    ],
    expect: { answer: target[field], effects: [] },
    entities: 1,
    distractors: size - 1,
    isChained: false,
  };
}

export const lookupSkill: SkillTemplate = {
  id: "lookup",
  description: "Answer a question about a contact (phone, email, city, company).",
  composes: [],
  toolsByLevel: {
    1: ["find_contacts", "get_contact", "finish"],
    2: ["find_contacts", "get_contact", "finish"],
    3: ["list_events", "get_contact", "finish"],
    4: ["list_events", "get_contact", "finish"],
    5: ["find_contacts", "get_contact", "finish"],
  },
  generate(level, rng, b) {
    if (level <= 2) return byName(level, rng, b);
    if (level <= 4) return byMeeting(level, rng, b);
    return byCityAndCompany(level, rng, b);
  },
};

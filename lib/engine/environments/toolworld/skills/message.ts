import { CITIES, MESSAGES } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";
import type { Contact } from "../world";

export const messageSkill: SkillTemplate = {
  id: "message",
  description: "Send a given text message to one or more contacts.",
  composes: [],
  toolsByLevel: {
    1: ["find_contacts", "send_message", "finish"],
    2: ["find_contacts", "send_message", "finish"],
    3: ["find_contacts", "send_message", "finish"],
    4: ["find_contacts", "send_message", "finish"],
    5: ["find_contacts", "send_message", "finish"],
  },
  generate(level, rng, b) {
    const text = rng.pick(MESSAGES);
    if (level <= 3) {
      const count = level === 3 ? 2 : 1;
      const targets: Contact[] = [];
      let distractors = 0;
      for (let i = 0; i < count; i++) {
        const target = b.addContact(b.freshName());
        targets.push(target);
        if (level >= 2) distractors += b.addNameDistractors(target, level === 2 ? 2 : 1).length;
      }
      const names = targets.map((t) => t.name).join(" and ");
      return {
        instruction: `Send ${names} a message saying '${text}'.`,
        reference: [
          ...targets.flatMap((t) => [
            call("find_contacts", { name: t.name }),
            call("send_message", { contact_id: t.id, text }),
          ]),
          call("finish"),
        ],
        expect: { answer: null, effects: targets.map((t) => effect.message(t.id, text)) },
        entities: count,
        distractors,
        isChained: false,
      };
    }
    const city = rng.pick(CITIES);
    const size = level === 4 ? 3 : 4;
    const people: Contact[] = [];
    for (let i = 0; i < size; i++) people.push(b.addContact(b.freshName(), { city }));
    b.isolateCity(city, people);
    const excluded = level === 5 ? rng.pick(people) : null;
    const targets = people.filter((p) => p !== excluded);
    const instruction = excluded
      ? `Send everyone in ${city} except ${excluded.name} a message saying '${text}'.`
      : `Send everyone in ${city} a message saying '${text}'.`;
    return {
      instruction,
      reference: [
        call("find_contacts", { city }),
        ...targets.map((t) => call("send_message", { contact_id: t.id, text })),
        call("finish"),
      ],
      expect: { answer: null, effects: targets.map((t) => effect.message(t.id, text)) },
      entities: targets.length,
      distractors: excluded ? 1 : 0,
      isChained: false,
    };
  },
};

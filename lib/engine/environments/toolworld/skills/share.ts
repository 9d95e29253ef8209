import { CITIES, EVENT_TITLES, type ContactField } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";
import type { Contact } from "../world";

const SHAREABLE: readonly ContactField[] = ["phone", "email"];

/** Composite of lookup and message: find a detail, then send it to someone. */
export const shareSkill: SkillTemplate = {
  id: "share",
  description: "Look up a contact's detail and message it to other contacts (lookup + message).",
  composes: ["lookup", "message"],
  toolsByLevel: {
    1: ["find_contacts", "get_contact", "send_message", "finish"],
    2: ["find_contacts", "get_contact", "send_message", "finish"],
    3: ["find_contacts", "get_contact", "send_message", "finish"],
    4: ["list_events", "get_contact", "find_contacts", "send_message", "finish"],
    5: ["find_contacts", "get_contact", "send_message", "finish"],
  },
  generate(level, rng, b) {
    const field = rng.pick(SHAREABLE);
    if (level === 4) {
      const subject = b.addContact(b.freshName());
      const date = b.freeDate();
      b.addEvent(rng.pick(EVENT_TITLES), date, subject.id);
      const recipient = b.addContact(b.freshName());
      const value = subject[field];
      return {
        instruction: `Send ${recipient.name} the ${field} of the person I am meeting on ${date}.`,
        reference: [
          call("list_events", { date }),
          call("get_contact", { contact_id: subject.id }),
          call("find_contacts", { name: recipient.name }),
          call("send_message", { contact_id: recipient.id, text: value }),
          call("finish"),
        ],
        expect: { answer: null, effects: [effect.message(recipient.id, value)] },
        entities: 2,
        distractors: 0,
        isChained: true,
      };
    }
    const subject = b.addContact(b.freshName());
    const value = subject[field];
    const lookup = [
      call("find_contacts", { name: subject.name }),
      call("get_contact", { contact_id: subject.id }),
    ];
    if (level === 5) {
      const city = rng.pick(CITIES.filter((c) => c !== subject.city));
      const people: Contact[] = [];
      for (let i = 0; i < 3; i++) people.push(b.addContact(b.freshName(), { city }));
      b.isolateCity(city, people);
      return {
        instruction: `Send everyone in ${city} the ${field} of ${subject.name}.`,
        reference: [
          ...lookup,
          call("find_contacts", { city }),
          ...people.map((p) => call("send_message", { contact_id: p.id, text: value })),
          call("finish"),
        ],
        expect: { answer: null, effects: people.map((p) => effect.message(p.id, value)) },
        entities: 3,
        distractors: 0,
        isChained: true,
      };
    }
    const recipients: Contact[] = [b.addContact(b.freshName())];
    if (level === 3) recipients.push(b.addContact(b.freshName()));
    let distractors = 0;
    if (level >= 2) {
      distractors += b.addNameDistractors(subject, 1).length;
      distractors += b.addNameDistractors(recipients[0]!, 1).length;
    }
    const names = recipients.map((r) => r.name).join(" and ");
    return {
      instruction: `Send ${names} the ${field} of ${subject.name}.`,
      reference: [
        ...lookup,
        ...recipients.flatMap((r) => [
          call("find_contacts", { name: r.name }),
          call("send_message", { contact_id: r.id, text: value }),
        ]),
        call("finish"),
      ],
      expect: { answer: null, effects: recipients.map((r) => effect.message(r.id, value)) },
      entities: recipients.length + 1,
      distractors,
      isChained: true,
    };
  },
};

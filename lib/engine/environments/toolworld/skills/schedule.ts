import { EVENT_TITLES } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";

export const scheduleSkill: SkillTemplate = {
  id: "schedule",
  description: "Create, cancel and reschedule calendar events.",
  composes: [],
  toolsByLevel: {
    1: ["find_contacts", "create_event", "finish"],
    2: ["find_contacts", "create_event", "finish"],
    3: ["list_events", "cancel_event", "finish"],
    4: ["list_events", "cancel_event", "create_event", "finish"],
    5: ["list_events", "cancel_event", "create_event", "finish"],
  },
  generate(level, rng, b) {
    const titles = rng.shuffle(EVENT_TITLES);
    if (level <= 2) {
      const target = b.addContact(b.freshName());
      const distractors = level === 2 ? b.addNameDistractors(target, 2).length : 0;
      const title = titles[0] as string;
      const date = b.freeDate();
      return {
        instruction: `Schedule '${title}' with ${target.name} on ${date}.`,
        reference: [
          call("find_contacts", { name: target.name }),
          call("create_event", { title, date, contact_id: target.id }),
          call("finish"),
        ],
        expect: { answer: null, effects: [effect.create(title, date, target.id)] },
        entities: 1,
        distractors,
        isChained: false,
      };
    }
    const day = b.freeDate();
    const people = b.allContacts();
    const count = level === 4 ? 2 : level === 3 ? 2 + rng.int(2) : 2;
    const events = Array.from({ length: count }, (_, i) =>
      b.addEvent(titles[i] as string, day, rng.pick(people).id),
    );
    if (level === 3) {
      return {
        instruction: `Cancel all my events on ${day}.`,
        reference: [
          call("list_events", { date: day }),
          ...events.map((e) => call("cancel_event", { event_id: e.id })),
          call("finish"),
        ],
        expect: { answer: null, effects: events.map((e) => effect.cancel(e.id)) },
        entities: events.length,
        distractors: 0,
        isChained: false,
      };
    }
    const target = b.freeDate();
    const moving = level === 4 ? [events[0]!] : events;
    const instruction =
      level === 4
        ? `Move my '${moving[0]!.title}' on ${day} to ${target}.`
        : `Move all my events on ${day} to ${target}.`;
    return {
      instruction,
      reference: [
        call("list_events", { date: day }),
        ...moving.flatMap((e) => [
          call("cancel_event", { event_id: e.id }),
          call("create_event", { title: e.title, date: target, contact_id: e.contactId }),
        ]),
        call("finish"),
      ],
      expect: {
        answer: null,
        effects: moving.flatMap((e) => [
          effect.cancel(e.id),
          effect.create(e.title, target, e.contactId),
        ]),
      },
      entities: moving.length,
      distractors: events.length - moving.length,
      isChained: true,
    };
  },
};

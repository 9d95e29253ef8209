import { MEMOS } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";
import type { Contact } from "../world";

export const paySkill: SkillTemplate = {
  id: "pay",
  description: "Send, request and pay back money.",
  composes: [],
  toolsByLevel: {
    1: ["find_contacts", "send_payment", "finish"],
    2: ["find_contacts", "send_payment", "finish"],
    3: ["find_contacts", "request_payment", "finish"],
    4: ["find_contacts", "list_transactions", "send_payment", "finish"],
    5: ["find_contacts", "list_transactions", "send_payment", "get_balance", "finish"],
  },
  generate(level, rng, b) {
    const amount = 10 + rng.int(190);
    const memos = rng.shuffle(MEMOS);
    if (level <= 2) {
      const target = b.addContact(b.freshName());
      const distractors = level === 2 ? b.addNameDistractors(target, 2).length : 0;
      const instruction =
        level === 1
          ? `Send ${target.name} $${amount}.`
          : `Pay ${target.name} $${amount} for the ${memos[0]}.`;
      return {
        instruction,
        reference: [
          call("find_contacts", { name: target.name }),
          call("send_payment", { contact_id: target.id, amount }),
          call("finish"),
        ],
        expect: { answer: null, effects: [effect.pay(target.id, amount)] },
        entities: 1,
        distractors,
        isChained: false,
      };
    }
    if (level === 3) {
      const targets: Contact[] = [b.addContact(b.freshName()), b.addContact(b.freshName())];
      return {
        instruction: `Request $${amount} from ${targets[0]!.name} and ${targets[1]!.name}.`,
        reference: [
          ...targets.flatMap((t) => [
            call("find_contacts", { name: t.name }),
            call("request_payment", { contact_id: t.id, amount }),
          ]),
          call("finish"),
        ],
        expect: { answer: null, effects: targets.map((t) => effect.request(t.id, amount)) },
        entities: 2,
        distractors: 0,
        isChained: false,
      };
    }
    const target = b.addContact(b.freshName());
    const memo = memos[0] as string;
    const owed = b.addTransaction(target.id, amount, memo, "in");
    b.addTransaction(target.id, 10 + rng.int(190), memos[1] as string, "in");
    b.addTransaction(target.id, 10 + rng.int(190), memos[2] as string, "out");
    const reference = [
      call("find_contacts", { name: target.name }),
      call("list_transactions", { contact_id: target.id }),
      call("send_payment", { contact_id: target.id, amount: owed.amount }),
    ];
    if (level === 4) {
      return {
        instruction: `Pay ${target.name} back for the ${memo}.`,
        reference: [...reference, call("finish")],
        expect: { answer: null, effects: [effect.pay(target.id, owed.amount)] },
        entities: 1,
        distractors: 2,
        isChained: true,
      };
    }
    const remaining = String(b.balance() - owed.amount);
    return {
      instruction: `Pay ${target.name} back for the ${memo}, then tell me my balance.`,
      reference: [...reference, call("get_balance"), call("finish", { answer: remaining })],
      expect: { answer: remaining, effects: [effect.pay(target.id, owed.amount)] },
      entities: 1,
      distractors: 2,
      isChained: true,
    };
  },
};

import { createRng, type Rng } from "../../rng";
import {
  CITIES,
  COMPANIES,
  EVENT_TITLES,
  EXTENSIONS,
  FILE_STEMS,
  FIRST_NAMES,
  FOLDERS,
  LAST_NAMES,
  MEMOS,
  MONTHS,
} from "./vocabulary";

export type Contact = {
  id: string;
  name: string;
  city: string;
  phone: string;
  email: string;
  company: string;
};
export type FileEntry = { id: string; name: string; folder: string; ext: string; month: string };
export type CalendarEvent = { id: string; title: string; date: string; contactId: string };
export type Transaction = {
  id: string;
  contactId: string;
  amount: number;
  memo: string;
  /** "in": the contact paid you; "out": you paid them. */
  direction: "in" | "out";
};

export type World = {
  contacts: Contact[];
  files: FileEntry[];
  events: CalendarEvent[];
  transactions: Transaction[];
  balance: number;
};

/** Entities a task adds to its generated world; stored in the spec so the world can be rebuilt. */
export type WorldPatch = {
  contacts?: Contact[];
  files?: FileEntry[];
  events?: CalendarEvent[];
  transactions?: Transaction[];
};

const BASE_CONTACTS = 9;
const BASE_FILES = 10;
const BASE_EVENTS = 5;
const BASE_TRANSACTIONS = 6;

export function formatDate(month: number, day: number): string {
  return `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export function makeContact(rng: Rng, id: string, name: string): Contact {
  const [first = "x", last = "y"] = name.toLowerCase().split(" ");
  return {
    id,
    name,
    city: rng.pick(CITIES),
    phone: `555-${String(1000 + rng.int(9000))}`,
    email: `${first}.${last}${rng.int(90) + 10}@mail.com`,
    company: rng.pick(COMPANIES),
  };
}

export function makeFile(rng: Rng, id: string, folder: string, ext: string, month: string) {
  const stem = rng.pick(FILE_STEMS);
  const name = `${stem}_${month.slice(0, 3).toLowerCase()}_${id.slice(1)}.${ext}`;
  return { id, name, folder, ext, month } satisfies FileEntry;
}

/** A fresh random world. Names are unique so a full name identifies one person. */
export function generateWorld(seed: number): World {
  const rng = createRng(seed);
  const used = new Set<string>();
  const contacts: Contact[] = [];
  while (contacts.length < BASE_CONTACTS) {
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    if (used.has(name)) continue;
    used.add(name);
    contacts.push(makeContact(rng, `c${contacts.length + 1}`, name));
  }
  const files: FileEntry[] = [];
  for (let i = 0; i < BASE_FILES; i++) {
    files.push(
      makeFile(rng, `f${i + 1}`, rng.pick(FOLDERS), rng.pick(EXTENSIONS), rng.pick(MONTHS)),
    );
  }
  const events: CalendarEvent[] = [];
  for (let i = 0; i < BASE_EVENTS; i++) {
    const contact = rng.pick(contacts);
    events.push({
      id: `e${i + 1}`,
      title: rng.pick(EVENT_TITLES),
      date: formatDate(1 + rng.int(12), 1 + rng.int(28)),
      contactId: contact.id,
    });
  }
  const transactions: Transaction[] = [];
  for (let i = 0; i < BASE_TRANSACTIONS; i++) {
    transactions.push({
      id: `t${i + 1}`,
      contactId: rng.pick(contacts).id,
      amount: 5 + rng.int(196),
      memo: rng.pick(MEMOS),
      direction: rng.next() < 0.5 ? "in" : "out",
    });
  }
  return { contacts, files, events, transactions, balance: 800 + rng.int(2400) };
}

function mergeById<T extends { id: string }>(base: T[], extra: T[] | undefined): T[] {
  if (!extra || extra.length === 0) return base;
  const replaced = new Map(extra.map((e) => [e.id, e]));
  const merged = base.map((e) => replaced.get(e.id) ?? e);
  const known = new Set(base.map((e) => e.id));
  for (const e of extra) if (!known.has(e.id)) merged.push(e);
  return merged;
}

export function applyPatch(world: World, patch: WorldPatch): World {
  return {
    contacts: mergeById(world.contacts, patch.contacts),
    files: mergeById(world.files, patch.files),
    events: mergeById(world.events, patch.events),
    transactions: mergeById(world.transactions, patch.transactions),
    balance: world.balance,
  };
}

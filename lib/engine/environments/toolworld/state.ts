import type { CalendarEvent, Contact, FileEntry, Transaction, World } from "./world";

export const DELETED = "\u0000deleted";

/**
 * Mutable per-episode state as an overlay on the immutable task world, so starting an episode
 * costs a few empty maps instead of a deep copy.
 */
export type WorldState = {
  world: World;
  contactsById: ReadonlyMap<string, Contact>;
  filesById: ReadonlyMap<string, FileEntry>;
  eventsById: ReadonlyMap<string, CalendarEvent>;
  /** file id → folder (or DELETED) when it differs from the world. */
  fileFolders: Map<string, string>;
  cancelledEvents: Set<string>;
  createdEvents: CalendarEvent[];
  messages: Array<{ contactId: string; text: string }>;
  payments: Array<{ contactId: string; amount: number }>;
  requests: Array<{ contactId: string; amount: number }>;
  balance: number;
};

export type IndexedWorld = {
  world: World;
  contactsById: ReadonlyMap<string, Contact>;
  filesById: ReadonlyMap<string, FileEntry>;
  eventsById: ReadonlyMap<string, CalendarEvent>;
  transactionsByContact: ReadonlyMap<string, Transaction[]>;
  /** Lower-cased name parts per contact id, for name search. */
  nameTokens: ReadonlyMap<string, readonly string[]>;
};

export function indexWorld(world: World): IndexedWorld {
  const transactionsByContact = new Map<string, Transaction[]>();
  for (const t of world.transactions) {
    const list = transactionsByContact.get(t.contactId) ?? [];
    list.push(t);
    transactionsByContact.set(t.contactId, list);
  }
  return {
    world,
    contactsById: new Map(world.contacts.map((c) => [c.id, c])),
    filesById: new Map(world.files.map((f) => [f.id, f])),
    eventsById: new Map(world.events.map((e) => [e.id, e])),
    transactionsByContact,
    nameTokens: new Map(world.contacts.map((c) => [c.id, c.name.toLowerCase().split(" ")])),
  };
}

export function createState(indexed: IndexedWorld): WorldState {
  return {
    world: indexed.world,
    contactsById: indexed.contactsById,
    filesById: indexed.filesById,
    eventsById: indexed.eventsById,
    fileFolders: new Map(),
    cancelledEvents: new Set(),
    createdEvents: [],
    messages: [],
    payments: [],
    requests: [],
    balance: indexed.world.balance,
  };
}

export function currentFolder(state: WorldState, file: FileEntry): string {
  return state.fileFolders.get(file.id) ?? file.folder;
}

export function normalizeText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Answers compare loosely on format ("$25" = "25.00") but strictly on content. */
export function normalizeAnswer(answer: string): string {
  const text = normalizeText(answer).replace(/^\$/, "");
  const asNumber = Number(text);
  if (text !== "" && Number.isFinite(asNumber)) return String(asNumber);
  return text.replace(/[.!]$/, "");
}

/**
 * The episode's net changes to the world as canonical strings. A checker compares this multiset
 * with the task's expected effects, so anything extra is a side effect and fails the task.
 */
export function listEffects(state: WorldState): string[] {
  const effects: string[] = [];
  for (const [fileId, folder] of state.fileFolders) {
    const original = state.filesById.get(fileId);
    if (!original || original.folder === folder) continue;
    effects.push(folder === DELETED ? `delete:${fileId}` : `move:${fileId}:${folder}`);
  }
  for (const eventId of state.cancelledEvents) {
    if (state.eventsById.has(eventId)) effects.push(`cancel:${eventId}`);
  }
  for (const event of state.createdEvents) {
    if (!state.cancelledEvents.has(event.id)) {
      effects.push(`create:${normalizeText(event.title)}|${event.date}|${event.contactId}`);
    }
  }
  for (const m of state.messages) effects.push(`message:${m.contactId}:${normalizeText(m.text)}`);
  for (const p of state.payments) effects.push(`pay:${p.contactId}:${p.amount}`);
  for (const r of state.requests) effects.push(`request:${r.contactId}:${r.amount}`);
  return effects.sort();
}

/** Multiset difference a − b of sorted string lists. */
export function subtractEffects(a: readonly string[], b: readonly string[]): string[] {
  const remaining = new Map<string, number>();
  for (const e of b) remaining.set(e, (remaining.get(e) ?? 0) + 1);
  const out: string[] = [];
  for (const e of a) {
    const left = remaining.get(e) ?? 0;
    if (left > 0) remaining.set(e, left - 1);
    else out.push(e);
  }
  return out;
}

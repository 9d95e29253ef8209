import type { Rng } from "../../../rng";
import type { ToolCall } from "../../../types";
import { normalizeText } from "../state";
import { CITIES, FIRST_NAMES, FOLDERS, LAST_NAMES, MONTHS } from "../vocabulary";
import {
  applyPatch,
  formatDate,
  makeContact,
  makeFile,
  type CalendarEvent,
  type Contact,
  type FileEntry,
  type Transaction,
  type World,
  type WorldPatch,
} from "../world";

export type TemplateOutput = {
  instruction: string;
  reference: ToolCall[];
  expect: { answer: string | null; effects: string[] };
  /** Entities the task is about (recipients, files to move…). */
  entities: number;
  /** Look-alikes the agent must not confuse with them. */
  distractors: number;
  /** The task feeds one tool's output into another app (cross-app chaining). */
  isChained: boolean;
};

export type SkillTemplate = {
  id: string;
  description: string;
  composes: string[];
  toolsByLevel: Record<number, string[]>;
  generate(level: number, rng: Rng, builder: WorldBuilder): TemplateOutput;
};

export const call = (tool: string, args: ToolCall["arguments"] = {}): ToolCall => ({
  tool,
  arguments: args,
});

export const effect = {
  message: (contactId: string, text: string) => `message:${contactId}:${normalizeText(text)}`,
  move: (fileId: string, folder: string) => `move:${fileId}:${folder}`,
  remove: (fileId: string) => `delete:${fileId}`,
  cancel: (eventId: string) => `cancel:${eventId}`,
  create: (title: string, date: string, contactId: string) =>
    `create:${normalizeText(title)}|${date}|${contactId}`,
  pay: (contactId: string, amount: number) => `pay:${contactId}:${amount}`,
  request: (contactId: string, amount: number) => `request:${contactId}:${amount}`,
};

/**
 * Shapes a generated world for one task: adds the entities the task is about and its distractors,
 * and moves accidental look-alikes out of the way, recording everything as a patch so the spec can
 * rebuild the exact world.
 */
export class WorldBuilder {
  private contacts = new Map<string, Contact>();
  private files = new Map<string, FileEntry>();
  private events = new Map<string, CalendarEvent>();
  private transactions = new Map<string, Transaction>();
  private nextId = 100;

  constructor(
    private readonly base: World,
    private readonly rng: Rng,
  ) {}

  allContacts(): Contact[] {
    return this.merged(this.base.contacts, this.contacts);
  }
  allFiles(): FileEntry[] {
    return this.merged(this.base.files, this.files);
  }
  allEvents(): CalendarEvent[] {
    return this.merged(this.base.events, this.events);
  }
  allTransactions(): Transaction[] {
    return this.merged(this.base.transactions, this.transactions);
  }
  balance(): number {
    return this.base.balance;
  }

  private merged<T extends { id: string }>(base: T[], patch: Map<string, T>): T[] {
    const out = base.map((e) => patch.get(e.id) ?? e);
    const known = new Set(base.map((e) => e.id));
    for (const [id, e] of patch) if (!known.has(id)) out.push(e);
    return out;
  }

  private id(prefix: string): string {
    this.nextId += 1;
    return `${prefix}${this.nextId}`;
  }

  /** A name sharing no first or last name with anyone, so a search for it returns one person. */
  freshName(): string {
    const used = new Set(this.allContacts().flatMap((c) => c.name.split(" ")));
    const firsts = FIRST_NAMES.filter((n) => !used.has(n));
    const lasts = LAST_NAMES.filter((n) => !used.has(n));
    return `${this.rng.pick(firsts)} ${this.rng.pick(lasts)}`;
  }

  addContact(name: string, overrides: Partial<Omit<Contact, "id" | "name">> = {}): Contact {
    const contact = { ...makeContact(this.rng, this.id("c"), name), ...overrides };
    this.contacts.set(contact.id, contact);
    return contact;
  }

  updateContact(contact: Contact, changes: Partial<Omit<Contact, "id">>): Contact {
    const next = { ...contact, ...changes };
    this.contacts.set(next.id, next);
    return next;
  }

  /** Contacts sharing the target's first or last name: a name search returns them too. */
  addNameDistractors(target: Contact, count: number): Contact[] {
    const [first = "", last = ""] = target.name.split(" ");
    const taken = new Set(this.allContacts().map((c) => c.name));
    const out: Contact[] = [];
    for (let i = 0; i < count; i++) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const name =
          i % 2 === 0
            ? `${first} ${this.rng.pick(LAST_NAMES)}`
            : `${this.rng.pick(FIRST_NAMES)} ${last}`;
        if (taken.has(name)) continue;
        taken.add(name);
        out.push(this.addContact(name, { city: this.rng.pick(CITIES) }));
        break;
      }
    }
    return out;
  }

  /** Makes `keep` the only contacts living in `city`. */
  isolateCity(city: string, keep: readonly Contact[]): void {
    const keepIds = new Set(keep.map((c) => c.id));
    const others = CITIES.filter((c) => c !== city);
    for (const c of this.allContacts()) {
      if (c.city === city && !keepIds.has(c.id))
        this.updateContact(c, { city: this.rng.pick(others) });
    }
  }

  addFile(folder: string, ext: string, month: string): FileEntry {
    const file = makeFile(this.rng, this.id("f"), folder, ext, month);
    this.files.set(file.id, file);
    return file;
  }

  /** Moves pre-existing files out of `folders` into ones the task never mentions. */
  clearFolders(folders: readonly string[], avoid: readonly string[]): void {
    const blocked = new Set([...folders, ...avoid]);
    const targets = FOLDERS.filter((f) => !blocked.has(f));
    for (const f of this.allFiles()) {
      if (folders.includes(f.folder))
        this.files.set(f.id, { ...f, folder: this.rng.pick(targets) });
    }
  }

  pickFolders(count: number): string[] {
    return this.rng.shuffle(FOLDERS).slice(0, count);
  }

  otherMonth(month: string): string {
    return this.rng.pick(MONTHS.filter((m) => m !== month));
  }

  /** A date no existing event uses. */
  freeDate(): string {
    const used = new Set(this.allEvents().map((e) => e.date));
    for (;;) {
      const date = formatDate(1 + this.rng.int(12), 1 + this.rng.int(28));
      if (!used.has(date)) return date;
    }
  }

  addEvent(title: string, date: string, contactId: string): CalendarEvent {
    const event = { id: this.id("e"), title, date, contactId };
    this.events.set(event.id, event);
    return event;
  }

  addTransaction(contactId: string, amount: number, memo: string, direction: "in" | "out") {
    const t: Transaction = { id: this.id("t"), contactId, amount, memo, direction };
    this.transactions.set(t.id, t);
    return t;
  }

  /** Removes a contact's pre-existing transactions from view by reassigning them. */
  reassignTransactions(contact: Contact): void {
    const others = this.allContacts().filter((c) => c.id !== contact.id);
    for (const t of this.allTransactions()) {
      if (t.contactId === contact.id && !this.transactions.has(t.id)) {
        this.transactions.set(t.id, { ...t, contactId: this.rng.pick(others).id });
      }
    }
  }

  patch(): WorldPatch {
    const patch: WorldPatch = {};
    if (this.contacts.size > 0) patch.contacts = [...this.contacts.values()];
    if (this.files.size > 0) patch.files = [...this.files.values()];
    if (this.events.size > 0) patch.events = [...this.events.values()];
    if (this.transactions.size > 0) patch.transactions = [...this.transactions.values()];
    return patch;
  }

  world(): World {
    return applyPatch(this.base, this.patch());
  }
}

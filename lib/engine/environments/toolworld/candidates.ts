import type { CandidateAction } from "../../environment-types";
import type { JsonObject, ToolCall } from "../../types";
import type { Mention, MentionType } from "./annotate";
import { callKey, type Knowledge, type KnownContact, type KnownFile } from "./knowledge";
import type { CalendarEvent, Transaction } from "./world";
import { CONTACT_FIELDS } from "./vocabulary";

export type MentionIndex = Record<MentionType, Mention[]>;

export function indexMentions(mentions: readonly Mention[]): MentionIndex {
  const index: MentionIndex = {
    NAME: [],
    CITY: [],
    COMPANY: [],
    FOLDER: [],
    EXT: [],
    MONTH: [],
    DATE: [],
    AMOUNT: [],
    MEMO: [],
    QUOTE: [],
  };
  for (const m of mentions) index[m.type].push(m);
  return index;
}

const DESTINATION_TAGS = new Set(["to", "into"]);
/** A name tagged "of" is whose detail is wanted, not who is acted on. */
const SUBJECT_TAGS = new Set(["of", "except"]);
const isExcept = (m: Mention) => m.tag === "except";
const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type Add = (tool: string, args: JsonObject, facts: string[]) => void;

/**
 * Enumerates the calls the builtin policy may choose from, each with "facts" describing where its
 * arguments came from and how they relate to the instruction. Facts are the raw material of the
 * policy's features: they describe, they never say which candidate is right.
 */
export function listCandidates(mentions: MentionIndex, k: Knowledge): CandidateAction[] {
  const out: CandidateAction[] = [];
  const add: Add = (tool, args, facts) => {
    const call: ToolCall = { tool, arguments: args };
    const key = callKey(call);
    if (k.calls.has(key)) facts.push("dup");
    out.push({ call, key, facts });
  };
  const contacts = [...k.contacts.values()];
  const factsOf = new Map<string, string[]>();
  for (const c of contacts) factsOf.set(c.contact.id, contactFacts(mentions, k, c));
  const cf = (c: KnownContact) => factsOf.get(c.contact.id) as string[];

  for (const m of mentions.NAME) add("find_contacts", { name: m.value }, [`arg:name@${m.tag}`]);
  for (const m of mentions.CITY) add("find_contacts", { city: m.value }, [`arg:city@${m.tag}`]);
  for (const c of contacts) {
    add("get_contact", { contact_id: c.contact.id }, [
      ...cf(c),
      c.isFetched ? "fetched" : "unfetched",
    ]);
  }

  const texts = messageTexts(mentions, contacts, cf);
  for (const c of contacts) {
    const base = k.messaged.has(c.contact.id) ? [...cf(c), "messaged"] : cf(c);
    for (const t of texts) {
      const facts = [...base, ...t.facts];
      if (t.ownerId === c.contact.id) facts.push("owner:self");
      add("send_message", { contact_id: c.contact.id, text: t.text }, facts);
    }
  }

  for (const m of mentions.FOLDER) add("list_files", { folder: m.value }, [`arg:folder@${m.tag}`]);
  for (const f of k.files.values()) {
    if (f.isDeleted) continue;
    const facts = fileFacts(mentions, f);
    for (const m of mentions.FOLDER) {
      if (m.value === f.folder) continue;
      add("move_file", { file_id: f.file.id, folder: m.value }, [...facts, `dest@${m.tag}`]);
    }
    add("delete_file", { file_id: f.file.id }, facts);
  }

  for (const m of mentions.DATE) add("list_events", { date: m.value }, [`arg:date@${m.tag}`]);
  for (const e of k.events.values()) {
    if (!e.isCancelled)
      add("cancel_event", { event_id: e.event.id }, eventFacts(mentions, e.event));
  }
  addCreateEvents(mentions, k, contacts, cf, add);

  for (const c of contacts) add("list_transactions", { contact_id: c.contact.id }, [...cf(c)]);
  for (const c of contacts) {
    const amounts: Array<{ amount: number; facts: string[] }> = mentions.AMOUNT.map((m) => ({
      amount: Number(m.value),
      facts: [`amt:ins@${m.tag}`],
    }));
    for (const t of k.transactions.get(c.contact.id) ?? []) {
      amounts.push({ amount: t.amount, facts: transactionFacts(mentions, t) });
    }
    for (const a of amounts) {
      add("send_payment", { contact_id: c.contact.id, amount: a.amount }, [
        ...cf(c),
        ...a.facts,
        k.paid.has(c.contact.id) ? "paid" : "unpaid",
      ]);
      add("request_payment", { contact_id: c.contact.id, amount: a.amount }, [
        ...cf(c),
        ...a.facts,
        k.requested.has(c.contact.id) ? "requested" : "unrequested",
      ]);
    }
  }
  add("get_balance", {}, [k.balance === null ? "balance:unknown" : "balance:known"]);

  add("finish", {}, ["noanswer"]);
  for (const c of contacts) {
    if (!c.isFetched) continue;
    for (const field of CONTACT_FIELDS) {
      add("finish", { answer: String(c.contact[field]) }, [`L:ans:${field}`, ...cf(c)]);
    }
  }
  if (k.balance !== null) {
    add("finish", { answer: String(k.balance) }, [
      "L:ans:balance",
      k.mutations > 0 ? "after-act" : "before-act",
    ]);
  }
  return out;
}

function contactFacts(mentions: MentionIndex, k: Knowledge, c: KnownContact): string[] {
  const facts: string[] = [`via:${c.via}`];
  if (c.isNameKnown) {
    const match = mentions.NAME.find((m) => m.value === c.contact.name);
    facts.push(match ? `name@${match.tag}` : "name:none");
    if (mentions.CITY.length > 0) {
      const city = mentions.CITY.find((m) => m.value === c.contact.city);
      facts.push(city ? `city@${city.tag}` : "city:other");
    }
  } else {
    facts.push("name:unknown");
  }
  if (mentions.COMPANY.length > 0) {
    if (!c.isFetched) facts.push("company:unknown");
    else {
      const company = mentions.COMPANY.find((m) => m.value === c.contact.company);
      facts.push(company ? `company@${company.tag}` : "company:other");
    }
  }
  for (const id of c.eventIds) {
    const known = k.events.get(id);
    if (!known) continue;
    for (const f of eventFacts(mentions, known.event)) facts.push(`attends:${f}`);
  }
  return facts;
}

function fileFacts(mentions: MentionIndex, f: KnownFile): string[] {
  const facts: string[] = [];
  for (const m of mentions.EXT) facts.push(f.file.ext === m.value ? `ext@${m.tag}` : "ext:other");
  for (const m of mentions.MONTH) {
    facts.push(
      f.file.month === m.value ? `month@${m.tag}` : `month:other@${isExcept(m) ? "except" : "-"}`,
    );
  }
  const place = mentions.FOLDER.find((m) => m.value === f.folder);
  facts.push(place ? `in@${place.tag}` : "in:other");
  if (f.wasTouched) facts.push("touched");
  return facts;
}

function eventFacts(mentions: MentionIndex, e: CalendarEvent): string[] {
  const date = mentions.DATE.find((m) => m.value === e.date);
  const facts = [date ? `date@${date.tag}` : "date:other"];
  if (mentions.QUOTE.length > 0) {
    const title = mentions.QUOTE.find((m) => sameText(m.value, e.title));
    facts.push(title ? `title@${title.tag}` : "title:other");
  }
  return facts;
}

function transactionFacts(mentions: MentionIndex, t: Transaction): string[] {
  const facts = ["amt:tx", `dir:${t.direction}`];
  if (mentions.MEMO.length > 0) {
    const memo = mentions.MEMO.find((m) => m.value === t.memo);
    facts.push(memo ? `memo@${memo.tag}` : "memo:other");
  }
  return facts;
}

type TextOption = { text: string; facts: string[]; ownerId: string | null };

function messageTexts(
  mentions: MentionIndex,
  contacts: KnownContact[],
  cf: (c: KnownContact) => string[],
): TextOption[] {
  const texts: TextOption[] = mentions.QUOTE.map((m) => ({
    text: m.value,
    facts: [`text:quote@${m.tag}`],
    ownerId: null,
  }));
  for (const c of contacts) {
    if (!c.isFetched) continue;
    const owner = cf(c).map((f) => `owner:${f}`);
    for (const field of ["phone", "email"] as const) {
      texts.push({
        text: c.contact[field],
        facts: [`L:text:${field}`, ...owner],
        ownerId: c.contact.id,
      });
    }
  }
  return texts;
}

function addCreateEvents(
  mentions: MentionIndex,
  k: Knowledge,
  contacts: KnownContact[],
  cf: (c: KnownContact) => string[],
  add: Add,
) {
  if (mentions.DATE.length === 0 || contacts.length === 0) return;
  const titles = new Map<string, { title: string; facts: string[]; sources: CalendarEvent[] }>();
  for (const m of mentions.QUOTE) {
    titles.set(m.value.toLowerCase(), {
      title: m.value,
      facts: [`title:quote@${m.tag}`],
      sources: [],
    });
  }
  for (const e of k.events.values()) {
    const key = e.event.title.toLowerCase();
    const entry = titles.get(key) ?? { title: e.event.title, facts: ["title:obs"], sources: [] };
    entry.sources.push(e.event);
    titles.set(key, entry);
  }
  for (const t of titles.values()) {
    for (const d of mentions.DATE) {
      for (const c of contacts) {
        const facts = [...t.facts, `date@${d.tag}`, ...cf(c)];
        if (t.sources.length > 0) {
          const own = t.sources.some((s) => s.contactId === c.contact.id);
          facts.push(own ? "pair:attendee" : "pair:other");
          if (t.sources.some((s) => s.date === d.value)) facts.push("pair:samedate");
        }
        if (k.invited.has(`${c.contact.id}|${t.title.toLowerCase()}`)) facts.push("invited");
        add("create_event", { title: t.title, date: d.value, contact_id: c.contact.id }, facts);
      }
    }
  }
}

/** Task-state flags: what is evidently left to do, from the instruction and observations alone. */
export function listFlags(mentions: MentionIndex, k: Knowledge): string[] {
  const flags: string[] = [];
  const targetNames = mentions.NAME.filter((m) => !isExcept(m));
  if (
    targetNames.some((m) => !k.searches.has(`name:${m.value}`)) ||
    mentions.CITY.some((m) => !k.searches.has(`city:${m.value}`))
  ) {
    flags.push("todo:search");
  }
  if (mentions.FOLDER.some((m) => !DESTINATION_TAGS.has(m.tag) && !k.listedFolders.has(m.value))) {
    flags.push("todo:folder");
  }
  if (mentions.DATE.some((m) => !DESTINATION_TAGS.has(m.tag) && !k.listedDates.has(m.value))) {
    flags.push("todo:date");
  }
  if (k.files.size > 0 && hasPendingFiles(mentions, k)) flags.push("todo:files");
  if (hasPendingEvents(mentions, k)) flags.push("todo:events");
  if (hasPendingContacts(mentions, k)) flags.push("todo:contacts");
  if (hasPendingRecreations(mentions, k)) flags.push("todo:recreate");
  if (k.mutations > 0) flags.push("acted");
  if ([...k.contacts.values()].some((c) => c.isFetched)) flags.push("fetched");
  if (!flags.some((f) => f.startsWith("todo:"))) flags.push("clear");
  return flags;
}

function hasPendingFiles(mentions: MentionIndex, k: Knowledge): boolean {
  const sources = new Set(
    mentions.FOLDER.filter((m) => !DESTINATION_TAGS.has(m.tag)).map((m) => m.value),
  );
  for (const f of k.files.values()) {
    if (f.isDeleted || f.wasTouched || !sources.has(f.folder)) continue;
    if (mentions.EXT.some((m) => m.value !== f.file.ext)) continue;
    const monthOk = mentions.MONTH.every((m) =>
      isExcept(m) ? f.file.month !== m.value : f.file.month === m.value,
    );
    if (monthOk) return true;
  }
  return false;
}

function hasPendingEvents(mentions: MentionIndex, k: Knowledge): boolean {
  const days = new Set(
    mentions.DATE.filter((m) => !DESTINATION_TAGS.has(m.tag)).map((m) => m.value),
  );
  for (const e of k.events.values()) {
    if (e.isCancelled || !days.has(e.event.date)) continue;
    if (
      mentions.QUOTE.length > 0 &&
      !mentions.QUOTE.some((m) => sameText(m.value, e.event.title))
    ) {
      continue;
    }
    return true;
  }
  return false;
}

function hasPendingContacts(mentions: MentionIndex, k: Knowledge): boolean {
  const excluded = new Set(mentions.NAME.filter(isExcept).map((m) => m.value));
  for (const c of k.contacts.values()) {
    if (!c.isNameKnown || excluded.has(c.contact.name)) continue;
    const named = mentions.NAME.some((m) => m.value === c.contact.name && !SUBJECT_TAGS.has(m.tag));
    const local = mentions.CITY.some((m) => m.value === c.contact.city);
    if (!named && !local) continue;
    const id = c.contact.id;
    const isDone =
      k.messaged.has(id) ||
      k.paid.has(id) ||
      k.requested.has(id) ||
      [...k.invited].some((key) => key.startsWith(`${id}|`));
    if (!isDone) return true;
  }
  return false;
}

function hasPendingRecreations(mentions: MentionIndex, k: Knowledge): boolean {
  if (!mentions.DATE.some((m) => DESTINATION_TAGS.has(m.tag))) return false;
  for (const e of k.events.values()) {
    if (!e.isCancelled) continue;
    if (!k.invited.has(`${e.event.contactId}|${e.event.title.toLowerCase()}`)) return true;
  }
  return false;
}

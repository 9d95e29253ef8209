import type { Json, JsonObject, ToolCall } from "../../types";
import type { CalendarEvent, Contact, FileEntry, Transaction } from "./world";

export type KnownContact = {
  contact: Contact;
  /** How the agent first learned of this contact. */
  via: "find" | "event";
  /** Name and city are visible once found by search or fetched. */
  isNameKnown: boolean;
  isFetched: boolean;
  /** Events (seen in listings) this contact attends. */
  eventIds: string[];
};

export type KnownFile = {
  file: FileEntry;
  folder: string;
  isDeleted: boolean;
  wasTouched: boolean;
};
export type KnownEvent = { event: CalendarEvent; isCancelled: boolean };

/**
 * What the agent has observed so far. Candidate actions draw their arguments only from here and
 * from the instruction, which keeps candidate lists small and makes every argument traceable.
 */
export type Knowledge = {
  searches: Set<string>;
  contacts: Map<string, KnownContact>;
  files: Map<string, KnownFile>;
  listedFolders: Set<string>;
  events: Map<string, KnownEvent>;
  listedDates: Set<string>;
  transactions: Map<string, Transaction[]>;
  balance: number | null;
  calls: Set<string>;
  messaged: Set<string>;
  paid: Set<string>;
  requested: Set<string>;
  invited: Set<string>;
  mutations: number;
  previousTool: string | null;
};

export function createKnowledge(): Knowledge {
  return {
    searches: new Set(),
    contacts: new Map(),
    files: new Map(),
    listedFolders: new Set(),
    events: new Map(),
    listedDates: new Set(),
    transactions: new Map(),
    balance: null,
    calls: new Set(),
    messaged: new Set(),
    paid: new Set(),
    requested: new Set(),
    invited: new Set(),
    mutations: 0,
    previousTool: null,
  };
}

export { callKey } from "../../calls";

type Lookup = {
  contact(id: string): Contact | undefined;
  file(id: string): FileEntry | undefined;
  transactions(contactId: string): Transaction[];
};

function asList(observation: Json): JsonObject[] {
  return Array.isArray(observation) ? (observation as JsonObject[]) : [];
}

/** Folds one successful tool call and its observation into what the agent knows. */
export function observe(
  knowledge: Knowledge,
  lookup: Lookup,
  call: ToolCall,
  observation: Json,
): void {
  const args = call.arguments;
  const learnContact = (id: string, via: KnownContact["via"], isNameKnown: boolean) => {
    const contact = lookup.contact(id);
    if (!contact) return undefined;
    let known = knowledge.contacts.get(id);
    if (!known) {
      known = { contact, via, isNameKnown, isFetched: false, eventIds: [] };
      knowledge.contacts.set(id, known);
    } else if (isNameKnown) {
      known.isNameKnown = true;
    }
    return known;
  };
  switch (call.tool) {
    case "find_contacts":
      if (args.name !== undefined) knowledge.searches.add(`name:${String(args.name)}`);
      if (args.city !== undefined) knowledge.searches.add(`city:${String(args.city)}`);
      for (const row of asList(observation)) learnContact(String(row.id), "find", true);
      break;
    case "get_contact": {
      const known = learnContact(String(args.contact_id), "find", true);
      if (known) known.isFetched = true;
      break;
    }
    case "list_files":
      knowledge.listedFolders.add(String(args.folder));
      for (const row of asList(observation)) {
        const file = lookup.file(String(row.id));
        if (file && !knowledge.files.has(file.id)) {
          knowledge.files.set(file.id, {
            file,
            folder: String(args.folder),
            isDeleted: false,
            wasTouched: false,
          });
        }
      }
      break;
    case "move_file": {
      const known = knowledge.files.get(String(args.file_id));
      if (known) {
        known.folder = String(args.folder);
        known.wasTouched = true;
      }
      break;
    }
    case "delete_file": {
      const known = knowledge.files.get(String(args.file_id));
      if (known) {
        known.isDeleted = true;
        known.wasTouched = true;
      }
      break;
    }
    case "list_events":
      knowledge.listedDates.add(String(args.date));
      for (const row of asList(observation)) {
        const id = String(row.id);
        if (knowledge.events.has(id)) continue;
        const event: CalendarEvent = {
          id,
          title: String(row.title),
          date: String(row.date),
          contactId: String(row.contact_id),
        };
        knowledge.events.set(id, { event, isCancelled: false });
        const attendee = learnContact(event.contactId, "event", false);
        attendee?.eventIds.push(id);
      }
      break;
    case "cancel_event": {
      const known = knowledge.events.get(String(args.event_id));
      if (known) known.isCancelled = true;
      break;
    }
    case "create_event":
      knowledge.invited.add(`${String(args.contact_id)}|${String(args.title).toLowerCase()}`);
      break;
    case "list_transactions":
      knowledge.transactions.set(
        String(args.contact_id),
        lookup.transactions(String(args.contact_id)),
      );
      break;
    case "send_message":
      knowledge.messaged.add(String(args.contact_id));
      break;
    case "send_payment":
      knowledge.paid.add(String(args.contact_id));
      break;
    case "request_payment":
      knowledge.requested.add(String(args.contact_id));
      break;
    case "get_balance": {
      const obs = observation as JsonObject;
      knowledge.balance = typeof obs?.balance === "number" ? obs.balance : null;
      break;
    }
  }
}

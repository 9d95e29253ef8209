import { validateJsonSchema } from "../../json-schema";
import type { Json, JsonObject, OpenAiTool, ToolCall } from "../../types";
import { FOLDERS } from "./vocabulary";
import type { IndexedWorld, WorldState } from "./state";
import { currentFolder, DELETED } from "./state";

export type ToolResult = { observation: Json; isError: boolean; isFinish: boolean };

type ToolDefinition = {
  name: string;
  app: "contacts" | "messages" | "files" | "calendar" | "payments" | "session";
  description: string;
  parameters: JsonObject;
  mutates: boolean;
  run(state: WorldState, indexed: IndexedWorld, args: JsonObject): Json;
};

class ToolError extends Error {}

const idParam = (description: string): JsonObject => ({
  type: "string",
  minLength: 1,
  description,
});
const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
const FOLDER_SET: ReadonlySet<string> = new Set(FOLDERS);

function requireContact(indexed: IndexedWorld, id: Json) {
  const contact = indexed.contactsById.get(String(id));
  if (!contact) throw new ToolError(`no contact with id ${String(id)}`);
  return contact;
}

function requireFolder(folder: Json): string {
  const name = String(folder);
  if (!FOLDER_SET.has(name)) throw new ToolError(`no folder named ${name}`);
  return name;
}

function requireLiveFile(state: WorldState, indexed: IndexedWorld, id: Json) {
  const file = indexed.filesById.get(String(id));
  if (!file || currentFolder(state, file) === DELETED) {
    throw new ToolError(`no file with id ${String(id)}`);
  }
  return file;
}

function liveEvents(state: WorldState, indexed: IndexedWorld) {
  const initial = indexed.world.events.filter((e) => !state.cancelledEvents.has(e.id));
  const created = state.createdEvents.filter((e) => !state.cancelledEvents.has(e.id));
  return [...initial, ...created];
}

const DEFINITIONS: ToolDefinition[] = [
  {
    name: "find_contacts",
    app: "contacts",
    description:
      "Search contacts by name (matches any contact sharing a first or last name) and/or city. Returns id, name and city.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, description: "Full or partial name" },
        city: { type: "string", minLength: 1, description: "City the contact lives in" },
      },
      additionalProperties: false,
    },
    mutates: false,
    run(_state, indexed, args) {
      if (args.name === undefined && args.city === undefined) {
        throw new ToolError("give a name or a city");
      }
      const tokens = args.name === undefined ? null : String(args.name).toLowerCase().split(/\s+/);
      const city = args.city === undefined ? null : String(args.city).toLowerCase();
      return indexed.world.contacts
        .filter((c) => {
          if (city !== null && c.city.toLowerCase() !== city) return false;
          if (tokens === null) return true;
          const own = indexed.nameTokens.get(c.id) ?? [];
          return tokens.some((t) => own.includes(t));
        })
        .map((c) => ({ id: c.id, name: c.name, city: c.city }));
    },
  },
  {
    name: "get_contact",
    app: "contacts",
    description: "Full details of one contact: name, city, phone, email, company.",
    parameters: {
      type: "object",
      properties: { contact_id: idParam("Contact id from find_contacts") },
      required: ["contact_id"],
      additionalProperties: false,
    },
    mutates: false,
    run(_state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      return {
        id: c.id,
        name: c.name,
        city: c.city,
        phone: c.phone,
        email: c.email,
        company: c.company,
      };
    },
  },
  {
    name: "send_message",
    app: "messages",
    description: "Send a text message to a contact.",
    parameters: {
      type: "object",
      properties: {
        contact_id: idParam("Recipient contact id"),
        text: { type: "string", minLength: 1, description: "Message text" },
      },
      required: ["contact_id", "text"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      state.messages.push({ contactId: c.id, text: String(args.text) });
      return { status: "sent", to: c.name };
    },
  },
  {
    name: "list_files",
    app: "files",
    description: "List the files in a folder with their id, name, extension and month.",
    parameters: {
      type: "object",
      properties: { folder: { type: "string", minLength: 1, description: "Folder name" } },
      required: ["folder"],
      additionalProperties: false,
    },
    mutates: false,
    run(state, indexed, args) {
      const folder = requireFolder(args.folder ?? null);
      return indexed.world.files
        .filter((f) => currentFolder(state, f) === folder)
        .map((f) => ({ id: f.id, name: f.name, ext: f.ext, month: f.month }));
    },
  },
  {
    name: "move_file",
    app: "files",
    description: "Move a file to another folder.",
    parameters: {
      type: "object",
      properties: {
        file_id: idParam("File id from list_files"),
        folder: { type: "string", minLength: 1, description: "Destination folder" },
      },
      required: ["file_id", "folder"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const file = requireLiveFile(state, indexed, args.file_id ?? null);
      const folder = requireFolder(args.folder ?? null);
      if (currentFolder(state, file) === folder) throw new ToolError(`file already in ${folder}`);
      state.fileFolders.set(file.id, folder);
      return { status: "moved", file: file.name, folder };
    },
  },
  {
    name: "delete_file",
    app: "files",
    description: "Delete a file permanently.",
    parameters: {
      type: "object",
      properties: { file_id: idParam("File id from list_files") },
      required: ["file_id"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const file = requireLiveFile(state, indexed, args.file_id ?? null);
      state.fileFolders.set(file.id, DELETED);
      return { status: "deleted", file: file.name };
    },
  },
  {
    name: "list_events",
    app: "calendar",
    description: "List calendar events on a date (YYYY-MM-DD) with their title and attendee.",
    parameters: {
      type: "object",
      properties: { date: { type: "string", pattern: DATE_PATTERN, description: "YYYY-MM-DD" } },
      required: ["date"],
      additionalProperties: false,
    },
    mutates: false,
    run(state, indexed, args) {
      const date = String(args.date);
      return liveEvents(state, indexed)
        .filter((e) => e.date === date)
        .map((e) => ({ id: e.id, title: e.title, date: e.date, contact_id: e.contactId }));
    },
  },
  {
    name: "create_event",
    app: "calendar",
    description: "Create a calendar event with one attendee.",
    parameters: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, description: "Event title" },
        date: { type: "string", pattern: DATE_PATTERN, description: "YYYY-MM-DD" },
        contact_id: idParam("Attendee contact id"),
      },
      required: ["title", "date", "contact_id"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      const id = `n${state.createdEvents.length + 1}`;
      state.createdEvents.push({
        id,
        title: String(args.title),
        date: String(args.date),
        contactId: c.id,
      });
      return { status: "created", event_id: id };
    },
  },
  {
    name: "cancel_event",
    app: "calendar",
    description: "Cancel a calendar event.",
    parameters: {
      type: "object",
      properties: { event_id: idParam("Event id from list_events") },
      required: ["event_id"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const id = String(args.event_id);
      const exists = liveEvents(state, indexed).some((e) => e.id === id);
      if (!exists) throw new ToolError(`no event with id ${id}`);
      state.cancelledEvents.add(id);
      return { status: "cancelled", event_id: id };
    },
  },
  {
    name: "list_transactions",
    app: "payments",
    description:
      "Past transactions with a contact: amount, memo and direction (in = they paid you, out = you paid them).",
    parameters: {
      type: "object",
      properties: { contact_id: idParam("Contact id") },
      required: ["contact_id"],
      additionalProperties: false,
    },
    mutates: false,
    run(_state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      return (indexed.transactionsByContact.get(c.id) ?? []).map((t) => ({
        id: t.id,
        amount: t.amount,
        memo: t.memo,
        direction: t.direction,
      }));
    },
  },
  {
    name: "send_payment",
    app: "payments",
    description: "Send money to a contact from your balance.",
    parameters: {
      type: "object",
      properties: {
        contact_id: idParam("Payee contact id"),
        amount: { type: "number", exclusiveMinimum: 0, description: "Amount in dollars" },
      },
      required: ["contact_id", "amount"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      const amount = Number(args.amount);
      if (amount > state.balance) throw new ToolError("insufficient balance");
      state.balance -= amount;
      state.payments.push({ contactId: c.id, amount });
      return { status: "paid", to: c.name, amount };
    },
  },
  {
    name: "request_payment",
    app: "payments",
    description: "Ask a contact to pay you an amount.",
    parameters: {
      type: "object",
      properties: {
        contact_id: idParam("Contact id"),
        amount: { type: "number", exclusiveMinimum: 0, description: "Amount in dollars" },
      },
      required: ["contact_id", "amount"],
      additionalProperties: false,
    },
    mutates: true,
    run(state, indexed, args) {
      const c = requireContact(indexed, args.contact_id ?? null);
      state.requests.push({ contactId: c.id, amount: Number(args.amount) });
      return { status: "requested", from: c.name, amount: Number(args.amount) };
    },
  },
  {
    name: "get_balance",
    app: "payments",
    description: "Your current account balance in dollars.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    mutates: false,
    run(state) {
      return { balance: state.balance };
    },
  },
  {
    name: "finish",
    app: "session",
    description:
      "End the task. Pass `answer` when the task asks a question; omit it when the task asks for actions.",
    parameters: {
      type: "object",
      properties: { answer: { type: "string", description: "Answer to the user's question" } },
      additionalProperties: false,
    },
    mutates: false,
    run(_state, _indexed, args) {
      return { status: "finished", answer: args.answer === undefined ? null : String(args.answer) };
    },
  },
];

const BY_NAME = new Map(DEFINITIONS.map((d) => [d.name, d]));

export const TOOL_NAMES: readonly string[] = DEFINITIONS.map((d) => d.name);
export const MUTATING_TOOLS: ReadonlySet<string> = new Set(
  DEFINITIONS.filter((d) => d.mutates).map((d) => d.name),
);
export const TOOL_APPS: Readonly<Record<string, string>> = Object.fromEntries(
  DEFINITIONS.map((d) => [d.name, d.app]),
);

export function listOpenAiTools(): OpenAiTool[] {
  return DEFINITIONS.map((d) => ({
    type: "function",
    function: { name: d.name, description: d.description, parameters: d.parameters },
  }));
}

/**
 * Executes any call — from the builtin policy or an LLM — after checking the tool exists and the
 * arguments satisfy its JSON schema. Errors come back as observations and change nothing.
 */
export function executeTool(
  state: WorldState,
  indexed: IndexedWorld,
  call: ToolCall,
  trusted = false,
): ToolResult {
  const definition = BY_NAME.get(call.tool);
  if (!definition) {
    return { observation: { error: `unknown tool ${call.tool}` }, isError: true, isFinish: false };
  }
  if (!trusted) {
    const problems = validateJsonSchema(definition.parameters, call.arguments);
    if (problems.length > 0) {
      return { observation: { error: problems.join("; ") }, isError: true, isFinish: false };
    }
  }
  try {
    const observation = definition.run(state, indexed, call.arguments);
    return { observation, isError: false, isFinish: definition.name === "finish" };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { observation: { error: error.message }, isError: true, isFinish: false };
  }
}

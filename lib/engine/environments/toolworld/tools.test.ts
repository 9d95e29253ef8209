import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../types";
import { createState, DELETED, indexWorld, listEffects, type WorldState } from "./state";
import { executeTool, listOpenAiTools, TOOL_NAMES } from "./tools";
import type { World } from "./world";

const WORLD: World = {
  contacts: [
    {
      id: "c1",
      name: "Maya Chen",
      city: "Lisbon",
      phone: "555-0101",
      email: "maya@mail.com",
      company: "Acme",
    },
    {
      id: "c2",
      name: "Maya Park",
      city: "Oslo",
      phone: "555-0102",
      email: "mpark@mail.com",
      company: "Hooli",
    },
    {
      id: "c3",
      name: "Leo Chen",
      city: "Lisbon",
      phone: "555-0103",
      email: "leo@mail.com",
      company: "Stark",
    },
  ],
  files: [
    { id: "f1", name: "a.pdf", folder: "Downloads", ext: "pdf", month: "March" },
    { id: "f2", name: "b.jpg", folder: "Downloads", ext: "jpg", month: "May" },
    { id: "f3", name: "c.pdf", folder: "Work", ext: "pdf", month: "March" },
  ],
  events: [{ id: "e1", title: "Dentist", date: "2026-03-14", contactId: "c1" }],
  transactions: [{ id: "t1", contactId: "c3", amount: 42, memo: "dinner", direction: "in" }],
  balance: 1000,
};

function fresh(): {
  state: WorldState;
  run: (tool: string, args?: JsonObject) => ReturnType<typeof executeTool>;
} {
  const indexed = indexWorld(WORLD);
  const state = createState(indexed);
  return {
    state,
    run: (tool, args = {}) => executeTool(state, indexed, { tool, arguments: args }),
  };
}

describe("ToolWorld tools", () => {
  it("exports at least 12 tools across 4+ apps in OpenAI function-calling format", () => {
    const tools = listOpenAiTools();
    expect(tools.length).toBeGreaterThanOrEqual(12);
    for (const t of tools) {
      expect(t.type).toBe("function");
      expect(t.function.name).toMatch(/^[a-z_]+$/);
      expect(t.function.description.length).toBeGreaterThan(10);
      expect(t.function.parameters.type).toBe("object");
    }
    expect(TOOL_NAMES).toContain("finish");
  });

  it("find_contacts matches any shared first/last name and filters by city", () => {
    const { run } = fresh();
    expect(run("find_contacts", { name: "Maya Chen" }).observation).toEqual([
      { id: "c1", name: "Maya Chen", city: "Lisbon" },
      { id: "c2", name: "Maya Park", city: "Oslo" },
      { id: "c3", name: "Leo Chen", city: "Lisbon" },
    ]);
    expect(run("find_contacts", { city: "Oslo" }).observation).toEqual([
      { id: "c2", name: "Maya Park", city: "Oslo" },
    ]);
    expect(run("find_contacts", {}).isError).toBe(true);
  });

  it("get_contact returns details and errors on unknown ids", () => {
    const { run } = fresh();
    expect(run("get_contact", { contact_id: "c3" }).observation).toMatchObject({
      phone: "555-0103",
      company: "Stark",
    });
    expect(run("get_contact", { contact_id: "c9" })).toMatchObject({ isError: true });
  });

  it("send_message records a message", () => {
    const { state, run } = fresh();
    run("send_message", { contact_id: "c1", text: "Hi there" });
    expect(state.messages).toEqual([{ contactId: "c1", text: "Hi there" }]);
    expect(listEffects(state)).toEqual(["message:c1:hi there"]);
  });

  it("list_files, move_file and delete_file read and change folders", () => {
    const { state, run } = fresh();
    expect((run("list_files", { folder: "Downloads" }).observation as unknown[]).length).toBe(2);
    run("move_file", { file_id: "f1", folder: "Archive" });
    expect((run("list_files", { folder: "Archive" }).observation as JsonObject[])[0]?.id).toBe(
      "f1",
    );
    expect(run("move_file", { file_id: "f1", folder: "Archive" }).isError).toBe(true);
    expect(run("move_file", { file_id: "f2", folder: "Nowhere" }).isError).toBe(true);
    run("delete_file", { file_id: "f3" });
    expect(state.fileFolders.get("f3")).toBe(DELETED);
    expect(run("delete_file", { file_id: "f3" }).isError).toBe(true);
    expect(listEffects(state)).toEqual(["delete:f3", "move:f1:Archive"]);
  });

  it("moving a file back where it was is no net effect", () => {
    const { state, run } = fresh();
    run("move_file", { file_id: "f1", folder: "Archive" });
    run("move_file", { file_id: "f1", folder: "Downloads" });
    expect(listEffects(state)).toEqual([]);
  });

  it("list_events, create_event and cancel_event manage the calendar", () => {
    const { state, run } = fresh();
    expect(run("list_events", { date: "2026-03-14" }).observation).toEqual([
      { id: "e1", title: "Dentist", date: "2026-03-14", contact_id: "c1" },
    ]);
    expect(
      run("create_event", { title: "Lunch", date: "2026-03-15", contact_id: "c2" }).observation,
    ).toMatchObject({ event_id: "n1" });
    run("cancel_event", { event_id: "e1" });
    expect(run("list_events", { date: "2026-03-14" }).observation).toEqual([]);
    expect(run("cancel_event", { event_id: "e1" }).isError).toBe(true);
    expect(listEffects(state)).toEqual(["cancel:e1", "create:lunch|2026-03-15|c2"]);
    expect(run("list_events", { date: "14 March" }).isError).toBe(true);
  });

  it("list_transactions, send_payment, request_payment and get_balance handle money", () => {
    const { state, run } = fresh();
    expect(run("list_transactions", { contact_id: "c3" }).observation).toEqual([
      { id: "t1", amount: 42, memo: "dinner", direction: "in" },
    ]);
    run("send_payment", { contact_id: "c3", amount: 42 });
    expect(run("get_balance").observation).toEqual({ balance: 958 });
    run("request_payment", { contact_id: "c1", amount: 10 });
    expect(run("send_payment", { contact_id: "c3", amount: 5000 }).isError).toBe(true);
    expect(run("send_payment", { contact_id: "c3", amount: -1 }).isError).toBe(true);
    expect(listEffects(state)).toEqual(["pay:c3:42", "request:c1:10"]);
  });

  it("finish ends the episode with an optional answer", () => {
    const { run } = fresh();
    expect(run("finish", { answer: "555-0101" })).toMatchObject({ isFinish: true, isError: false });
    expect(run("finish")).toMatchObject({ isFinish: true });
  });

  it("rejects unknown tools and arguments that break the JSON schema, changing nothing", () => {
    const { state, run } = fresh();
    expect(run("launch_rocket").observation).toEqual({ error: "unknown tool launch_rocket" });
    expect(run("send_message", { contact_id: "c1" }).observation).toEqual({
      error: "arguments.text is required",
    });
    expect(run("send_payment", { contact_id: "c1", amount: "ten" }).isError).toBe(true);
    expect(run("get_balance", { extra: 1 }).isError).toBe(true);
    expect(listEffects(state)).toEqual([]);
  });
});

import { redirect } from "next/navigation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { defineAction } from "./safe-action";

vi.mock("server-only", () => ({}));

const schema = z.object({
  runId: z.coerce.number().int().positive(),
  size: z.number().int().min(2),
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("defineAction", () => {
  it("returns field errors in words a person can act on, and never calls the handler", async () => {
    const handler = vi.fn();
    const action = defineAction({ name: "round.launch", schema, handler });

    const result = await action(null, { runId: "x", size: 4.5 });

    expect(result).toEqual({
      ok: false,
      error: "Some fields need attention.",
      fieldErrors: { runId: ["Enter a number"], size: ["Enter a whole number"] },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("maps issue paths to form fields and reads FormData without React's $ACTION entries", async () => {
    const action = defineAction({
      name: "run.create",
      schema: z.object({ config: z.object({ groupSize: z.number().min(2) }) }),
      prepare: (raw) => ({ config: { groupSize: Number(raw.groupSize) } }),
      fieldOf: (path) => String(path.at(-1)),
      handler: async () => {},
    });
    const form = new FormData();
    form.set("$ACTION_ID_abc", "");
    form.set("groupSize", "1");

    expect(await action(null, form)).toMatchObject({
      ok: false,
      fieldErrors: { groupSize: ["Must be at least 2"] },
    });
  });

  it("passes the parsed input and returns the handler's value on success", async () => {
    const action = defineAction({
      name: "round.launch",
      schema,
      handler: async ({ runId, size }) => ({ message: `run ${runId} × ${size}` }),
    });

    expect(await action(null, { runId: "7", size: 4 })).toEqual({ ok: true, message: "run 7 × 4" });
  });

  it("shows an AppError's message as the refusal, with its code for the client to react to", async () => {
    const action = defineAction({
      name: "round.launch",
      schema,
      handler: async () => {
        throw new AppError("CONFLICT", "A round is already in progress (generation 1 is running).");
      },
    });

    expect(await action(null, { runId: 1, size: 2 })).toEqual({
      ok: false,
      error: "A round is already in progress (generation 1 is running).",
      code: "CONFLICT",
    });
  });

  it("logs an unexpected error once and shows a plain message that leaks nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const action = defineAction({
      name: "round.launch",
      schema,
      handler: async () => {
        throw new Error("password authentication failed for user secret");
      },
    });

    const result = await action(null, { runId: 1, size: 2 });

    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain("secret");
    expect(log).toHaveBeenCalledTimes(1);
  });

  it("lets Next's redirect through", async () => {
    const action = defineAction({
      name: "run.create",
      schema,
      handler: async () => redirect("/runs/x"),
    });

    await expect(action(null, { runId: 1, size: 2 })).rejects.toThrow("NEXT_REDIRECT");
  });
});

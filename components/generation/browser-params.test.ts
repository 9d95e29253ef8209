import { describe, expect, it, vi } from "vitest";
import { encodeCursor } from "@/lib/db/queries/generation-tasks";
import { browserHref, parseBrowserState } from "./browser-params";

vi.mock("server-only", () => ({}));

describe("parseBrowserState", () => {
  it("reads the filter from comma lists and repeated params alike, and the sort and cursor", () => {
    const cursor = encodeCursor({ id: 42, key: 0.5 });
    const state = parseBrowserState({
      skill: ["files", "math"],
      review: "PENDING,APPROVED",
      minDifficulty: "0.2",
      q: "  invoice ",
      sort: "difficulty",
      after: cursor,
    });
    expect(state.problems).toEqual([]);
    expect(state.filter).toMatchObject({
      skill: ["files", "math"],
      review: ["PENDING", "APPROVED"],
      minDifficulty: 0.2,
      q: "invoice",
    });
    expect(state.sort).toBe("difficulty");
    expect(state.page).toEqual({ direction: "after", cursor: { id: 42, key: 0.5 } });
  });

  it("treats empty form fields as unset", () => {
    const state = parseBrowserState({
      q: "",
      minDifficulty: "",
      maxDifficulty: "",
      sort: "newest",
    });
    expect(state.problems).toEqual([]);
    expect(state.filter.q).toBeUndefined();
    expect(state.filter.minDifficulty).toBeUndefined();
    expect(state.page).toBeUndefined();
  });

  it("says what it ignored: an invalid filter, an unknown sort, a cursor of another sort", () => {
    const state = parseBrowserState({
      review: "MAYBE",
      sort: "random",
      before: encodeCursor({ id: 3, key: "files" }),
    });
    expect(state.filter.review).toEqual([]);
    expect(state.sort).toBe("newest");
    expect(state.page).toBeUndefined();
    expect(state.problems).toEqual([
      expect.stringMatching(/^The filter in this link is not valid \(review: /),
      'Unknown sort "random"; sorted newest first.',
      "The page position in this link is not valid; showing the first page.",
    ]);

    const reversed = parseBrowserState({ minDifficulty: "0.8", maxDifficulty: "0.2" });
    expect(reversed.problems[0]).toMatch(/minimum difficulty must not exceed the maximum/);
    expect(reversed.filter.minDifficulty).toBeUndefined();
  });

  it("reads before=end as the last page", () => {
    expect(parseBrowserState({ before: "end" }).page).toEqual({
      direction: "before",
      cursor: "end",
    });
  });
});

describe("browserHref", () => {
  it("writes the filter canonically and keeps it across pages; the default sort is implicit", () => {
    const { filter } = parseBrowserState({ skill: ["files", "math"], q: "a b" });
    expect(browserHref("/runs/x/generations/1", { filter, sort: "newest" })).toBe(
      "/runs/x/generations/1?skill=files%2Cmath&q=a+b",
    );
    expect(browserHref("/runs/x/generations/1", { filter, sort: "skill" }, { after: "abc" })).toBe(
      "/runs/x/generations/1?skill=files%2Cmath&q=a+b&sort=skill&after=abc",
    );
    const roundTrip = parseBrowserState(
      Object.fromEntries(
        new URL(browserHref("/p", { filter, sort: "skill" }), "http://x").searchParams,
      ),
    );
    expect(roundTrip.filter).toEqual(filter);
    expect(roundTrip.sort).toBe("skill");
  });
});

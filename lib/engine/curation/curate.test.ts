import { describe, expect, it } from "vitest";
import { makeTask } from "../testing/fixtures";
import { curateTasks, reviewTask } from "./curate";

const valid = (id: string, d: number) =>
  makeTask(id, "pay", 2, {
    estimatedDifficulty: d,
    review: { status: "pending", by: null, note: null },
  });
const invalid = makeTask("x", "pay", 2, {
  validation: { status: "invalid", reason: "duplicate of an earlier task" },
  review: { status: "pending", by: null, note: null },
});

describe("curation", () => {
  it("manual: valid tasks wait for a person; invalid ones are rejected with the validator's reason", () => {
    const [a, x] = curateTasks([valid("a", 0.3), invalid], { mode: "manual", band: [0, 1] });
    expect(a!.review).toEqual({ status: "pending", by: null, note: null });
    expect(x!.review).toEqual({
      status: "rejected",
      by: "validator",
      note: "duplicate of an earlier task",
    });
    expect(reviewTask(a!, "approved", "ana@example.com", null).review.status).toBe("approved");
    expect(() => reviewTask(x!, "approved", "ana@example.com", null)).toThrow(
      /did not pass validation/,
    );
  });

  it("auto approves every valid task", () => {
    expect(curateTasks([valid("a", 0.95)], { mode: "auto", band: [0, 1] })[0]!.review).toEqual({
      status: "approved",
      by: "auto",
      note: null,
    });
  });

  it("auto-band approves only inside the difficulty band and says why otherwise", () => {
    const out = curateTasks([valid("a", 0.1), valid("b", 0.5), valid("c", 0.95)], {
      mode: "auto-band",
      band: [0.2, 0.9],
    });
    expect(out.map((t) => t.review.status)).toEqual(["rejected", "approved", "rejected"]);
    expect(out[0]!.review.note).toBe("estimated difficulty 0.1 outside band [0.2, 0.9]");
  });
});

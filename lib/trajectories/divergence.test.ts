import { describe, expect, it } from "vitest";
import {
  actionKey,
  alignRollouts,
  canonicalJson,
  divergenceText,
  groupRewardStats,
} from "./divergence";

const step = (tool: string, args: Record<string, string | number> = {}) => ({
  tool,
  arguments: args,
});

describe("alignRollouts", () => {
  it("finds no divergence when every rollout takes the same actions", () => {
    const rollout = [step("search_contacts", { name: "Ada" }), step("finish", { answer: "x" })];
    const alignment = alignRollouts([rollout, [...rollout], [...rollout]]);

    expect(alignment.firstDivergence).toBeNull();
    expect(alignment.rows.map((r) => r.isAligned)).toEqual([true, true]);
    expect(divergenceText(alignment, 3)).toBe("All rollouts take the same actions.");
  });

  it("flags the first step when the rollouts start differently", () => {
    const alignment = alignRollouts([
      [step("search_contacts", { name: "Ada" }), step("finish")],
      [step("list_files"), step("finish")],
    ]);

    expect(alignment.firstDivergence).toBe(0);
    expect(alignment.rows[0]!.keys).toEqual(['search_contacts {"name":"Ada"}', "list_files {}"]);
    expect(alignment.rows[1]!.isAligned).toBe(true);
    expect(divergenceText(alignment, 2)).toBe("Rollouts diverge at step 1");
  });

  it("treats a different argument under the same tool as a divergence", () => {
    const alignment = alignRollouts([
      [step("open"), step("pay", { to: "Ada", amount: 5 })],
      [step("open"), step("pay", { to: "Ada", amount: 6 })],
      [step("open"), step("pay", { amount: 5, to: "Ada" })],
    ]);

    expect(alignment.firstDivergence).toBe(1);
    expect(divergenceText(alignment, 3)).toBe("Rollouts diverge at step 2");
    // Two of three paid 5: the odd one out is the sample that paid 6.
    expect(alignment.rows[1]!.majority).toBe('pay {"amount":5,"to":"Ada"}');
    expect(alignment.rows[0]!.majority).toBe("open {}");
  });

  it("diverges where a shorter rollout ends and a longer one keeps acting", () => {
    const alignment = alignRollouts([
      [step("open"), step("finish")],
      [step("open"), step("finish"), step("extra")],
    ]);

    expect(alignment.firstDivergence).toBe(2);
    expect(alignment.rows).toHaveLength(3);
    expect(alignment.rows[2]!.keys).toEqual([null, "extra {}"]);
    expect(alignment.rows[2]!.isAligned).toBe(false);
  });

  it("never reports a divergence for a single rollout or an empty group", () => {
    const single = alignRollouts([[step("open"), step("finish")]]);
    expect(single.firstDivergence).toBeNull();
    expect(single.rows.every((r) => r.isAligned)).toBe(true);
    expect(divergenceText(single, 1)).toMatch(/Only one rollout/);

    expect(alignRollouts([])).toEqual({ firstDivergence: null, rows: [] });
    expect(alignRollouts([[], []]).rows).toEqual([]);
  });
});

describe("canonicalJson / actionKey", () => {
  it("ignores key order but not values, nesting or array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,1]},"b":1}',
    );
    expect(actionKey(step("x", { a: 1, b: 2 }))).toBe(actionKey(step("x", { b: 2, a: 1 })));
    expect(actionKey(step("x", { a: 1 }))).not.toBe(actionKey(step("y", { a: 1 })));
  });
});

describe("groupRewardStats", () => {
  it("gives the mean and population std GRPO normalizes by", () => {
    const stats = groupRewardStats([1, 0, 0, 1]);
    expect(stats.mean).toBe(0.5);
    expect(stats.std).toBe(0.5);
    expect(stats.isFlat).toBe(false);
    expect(stats.advantages).toEqual([1, -1, -1, 1]);
  });

  it("marks a group whose rewards are all equal as carrying no gradient", () => {
    const stats = groupRewardStats([0.3, 0.3, 0.3]);
    expect(stats.std).toBeCloseTo(0, 12);
    expect(stats.isFlat).toBe(true);
    expect(stats.advantages).toEqual([0, 0, 0]);
  });
});

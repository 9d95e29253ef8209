import { describe, expect, it } from "vitest";
import { groupNeighbours, groupSlotOf, segmentByGroup, splitIntoGroups } from "./groups";

const samples = (...indices: number[]) => indices.map((sampleIndex) => ({ sampleIndex }));

describe("splitIntoGroups", () => {
  it("puts samples k·G … k·G+G−1 in slot k", () => {
    const groups = splitIntoGroups(samples(0, 1, 2, 3, 4, 5, 6, 7), 4);
    expect(groups.map((g) => [g.slot, g.members.map((m) => m.sampleIndex)])).toEqual([
      [0, [0, 1, 2, 3]],
      [1, [4, 5, 6, 7]],
    ]);
  });

  it("keeps a single slot for one group and an empty list for no samples", () => {
    expect(splitIntoGroups(samples(0, 1, 2), 4)).toHaveLength(1);
    expect(splitIntoGroups([], 4)).toEqual([]);
    expect(groupSlotOf(9, 0)).toBe(0);
  });
});

describe("groupNeighbours", () => {
  it("links within the sample's own group only", () => {
    const members = samples(0, 1, 2, 3, 4, 5, 6, 7);
    expect(groupNeighbours(members, 3, 4)).toMatchObject({
      previous: { sampleIndex: 2 },
      next: null,
      position: 3,
      size: 4,
    });
    expect(groupNeighbours(members, 4, 4)).toMatchObject({
      previous: null,
      next: { sampleIndex: 5 },
      position: 0,
    });
  });

  it("gives no neighbours for a lone sample", () => {
    expect(groupNeighbours(samples(0), 0, 8)).toMatchObject({ previous: null, next: null });
  });
});

describe("segmentByGroup", () => {
  const row = (generationIndex: number, purpose: string, sampleIndex: number) => ({
    generationIndex,
    purpose,
    sampleIndex,
  });

  it("starts a segment at every change of generation, purpose or training slot", () => {
    const segments = segmentByGroup(
      [
        row(2, "TRAIN", 0),
        row(2, "TRAIN", 1),
        row(2, "TRAIN", 2),
        row(2, "EVAL", 0),
        row(1, "TRAIN", 0),
      ],
      2,
    );
    expect(segments.map((s) => [s.generationIndex, s.purpose, s.slot, s.rows.length])).toEqual([
      [2, "TRAIN", 0, 2],
      [2, "TRAIN", 1, 1],
      [2, "EVAL", 0, 1],
      [1, "TRAIN", 0, 1],
    ]);
  });

  it("keeps every evaluation sample of a generation together", () => {
    const segments = segmentByGroup([row(1, "EVAL", 0), row(1, "EVAL", 5)], 2);
    expect(segments).toHaveLength(1);
    expect(segmentByGroup([], 2)).toEqual([]);
  });
});

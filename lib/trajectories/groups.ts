/**
 * A task can fill several pool slots in one generation; the k-th slot's GRPO group holds samples
 * k·G … k·G+G−1 (lib/engine/README.md, "Determinism contract"). The trainer normalizes rewards
 * within each such group, so the group page does too.
 */

export const groupSlotOf = (sampleIndex: number, groupSize: number) =>
  groupSize > 0 ? Math.floor(sampleIndex / groupSize) : 0;

export type SlotGroup<T> = { slot: number; members: T[] };

/** Samples split into their GRPO groups, in slot order; members keep their input order. */
export function splitIntoGroups<T extends { sampleIndex: number }>(
  samples: readonly T[],
  groupSize: number,
): SlotGroup<T>[] {
  const bySlot = new Map<number, T[]>();
  for (const sample of samples) {
    const slot = groupSlotOf(sample.sampleIndex, groupSize);
    const list = bySlot.get(slot) ?? [];
    list.push(sample);
    bySlot.set(slot, list);
  }
  return [...bySlot.entries()]
    .sort(([a], [b]) => a - b)
    .map(([slot, members]) => ({ slot, members }));
}

/** The neighbours of a sample inside its own GRPO group (prev/next links), by sample order. */
export function groupNeighbours<T extends { sampleIndex: number }>(
  members: readonly T[],
  sampleIndex: number,
  groupSize: number,
): { previous: T | null; next: T | null; position: number; size: number } {
  const slot = groupSlotOf(sampleIndex, groupSize);
  const group = members
    .filter((m) => groupSlotOf(m.sampleIndex, groupSize) === slot)
    .sort((a, b) => a.sampleIndex - b.sampleIndex);
  const at = group.findIndex((m) => m.sampleIndex === sampleIndex);
  return {
    previous: at > 0 ? group[at - 1]! : null,
    next: at >= 0 && at < group.length - 1 ? group[at + 1]! : null,
    position: at,
    size: group.length,
  };
}

export type GroupSegment<T> = {
  generationIndex: number;
  purpose: string;
  /** Pool slot of a training group; 0 for evaluation and validation samples. */
  slot: number;
  rows: T[];
};

/**
 * Consecutive rows of one GRPO group (generation × purpose × slot), for tables that show a task's
 * trajectories group by group. Rows must already be ordered so a group's rows are adjacent.
 */
export function segmentByGroup<
  T extends { generationIndex: number; purpose: string; sampleIndex: number },
>(rows: readonly T[], groupSize: number): GroupSegment<T>[] {
  const segments: GroupSegment<T>[] = [];
  for (const row of rows) {
    const slot = row.purpose === "TRAIN" ? groupSlotOf(row.sampleIndex, groupSize) : 0;
    const last = segments.at(-1);
    if (
      last &&
      last.generationIndex === row.generationIndex &&
      last.purpose === row.purpose &&
      last.slot === slot
    ) {
      last.rows.push(row);
    } else {
      segments.push({
        generationIndex: row.generationIndex,
        purpose: row.purpose,
        slot,
        rows: [row],
      });
    }
  }
  return segments;
}

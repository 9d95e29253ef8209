import type { Rng } from "../../../rng";
import type { ToolCall } from "../../../types";
import { EXTENSIONS, MONTHS } from "../vocabulary";
import type { FileEntry } from "../world";
import { call, type WorldBuilder } from "./builder";

/** `ext: "*"` = any extension. */
export type FileCriteria = { ext: string; month: string | null; exceptMonth: string | null };

export function matchesCriteria(file: FileEntry, criteria: FileCriteria): boolean {
  if (criteria.ext !== "*" && file.ext !== criteria.ext) return false;
  if (criteria.month !== null && file.month !== criteria.month) return false;
  if (criteria.exceptMonth !== null && file.month === criteria.exceptMonth) return false;
  return true;
}

/**
 * Empties `folders`, then fills them with `matching` files that meet the criteria and
 * `distractors` that miss exactly one attribute, so telling them apart needs every attribute.
 */
export function stockFolders(
  rng: Rng,
  b: WorldBuilder,
  folders: readonly string[],
  avoid: readonly string[],
  criteria: FileCriteria,
  matching: number,
  distractors: number,
): void {
  b.clearFolders(folders, avoid);
  const anyExt = () => (criteria.ext === "*" ? rng.pick(EXTENSIONS) : criteria.ext);
  const hasMonthRule = criteria.month !== null || criteria.exceptMonth !== null;
  for (let i = 0; i < matching; i++) {
    const month = criteria.month ?? rng.pick(MONTHS.filter((m) => m !== criteria.exceptMonth));
    b.addFile(folders[i % folders.length] as string, anyExt(), month);
  }
  for (let i = 0; i < distractors; i++) {
    const folder = folders[(i + 1) % folders.length] as string;
    if (hasMonthRule && (i % 2 === 0 || criteria.ext === "*")) {
      const month = criteria.exceptMonth ?? b.otherMonth(criteria.month as string);
      b.addFile(folder, anyExt(), month);
    } else {
      const ext = rng.pick(EXTENSIONS.filter((e) => e !== criteria.ext));
      b.addFile(folder, ext, rng.pick(MONTHS));
    }
  }
}

/** Reference: list each source folder, then act on its matching files in id order. */
export function planFileWork(
  b: WorldBuilder,
  folders: readonly string[],
  criteria: FileCriteria,
  act: (file: FileEntry) => { call: ToolCall; effect: string },
): { reference: ToolCall[]; effects: string[]; matching: number; distractors: number } {
  const reference: ToolCall[] = [];
  const effects: string[] = [];
  let matching = 0;
  let distractors = 0;
  for (const folder of folders) {
    reference.push(call("list_files", { folder }));
    const inFolder = b
      .allFiles()
      .filter((f) => f.folder === folder)
      .sort((x, y) => x.id.localeCompare(y.id, "en", { numeric: true }));
    for (const file of inFolder) {
      if (!matchesCriteria(file, criteria)) {
        distractors++;
        continue;
      }
      const step = act(file);
      reference.push(step.call);
      effects.push(step.effect);
      matching++;
    }
  }
  reference.push(call("finish"));
  return { reference, effects, matching, distractors };
}

import { EXTENSIONS, MONTHS } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";
import { planFileWork, stockFolders, type FileCriteria } from "./files-common";

export const cleanupSkill: SkillTemplate = {
  id: "cleanup",
  description: "Delete files matching an extension or month, sometimes with an exception.",
  composes: [],
  toolsByLevel: {
    1: ["list_files", "delete_file", "finish"],
    2: ["list_files", "delete_file", "finish"],
    3: ["list_files", "delete_file", "finish"],
    4: ["list_files", "delete_file", "finish"],
    5: ["list_files", "delete_file", "finish"],
  },
  generate(level, rng, b) {
    const [folder = "", second = ""] = b.pickFolders(2);
    const ext = rng.pick(EXTENSIONS);
    const month = rng.pick(MONTHS);
    const folders = level === 5 ? [folder, second] : [folder];
    const where = folders.join(" and ");
    let criteria: FileCriteria;
    let instruction: string;
    let counts: [number, number];
    if (level <= 2) {
      criteria = { ext, month: null, exceptMonth: null };
      instruction =
        level === 1
          ? `Delete the ${ext} file in ${where}.`
          : `Delete all ${ext} files in ${where}.`;
      counts = level === 1 ? [1, 2] : [2, 2];
    } else if (level === 3) {
      criteria = { ext: "*", month, exceptMonth: null };
      instruction = `Delete the ${month} files in ${where}.`;
      counts = [3, 2];
    } else {
      criteria = { ext, month: null, exceptMonth: month };
      instruction = `Delete all ${ext} files in ${where} except the ${month} ones.`;
      counts = level === 4 ? [2, 3] : [3, 4];
    }
    stockFolders(rng, b, folders, [], criteria, counts[0], counts[1]);
    const work = planFileWork(b, folders, criteria, (file) => ({
      call: call("delete_file", { file_id: file.id }),
      effect: effect.remove(file.id),
    }));
    return {
      instruction,
      reference: work.reference,
      expect: { answer: null, effects: work.effects },
      entities: work.matching,
      distractors: work.distractors,
      isChained: false,
    };
  },
};

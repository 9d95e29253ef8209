import { EXTENSIONS, MONTHS } from "../vocabulary";
import { call, effect, type SkillTemplate } from "./builder";
import { planFileWork, stockFolders, type FileCriteria } from "./files-common";

export const organizeSkill: SkillTemplate = {
  id: "organize",
  description: "Move files matching an extension (and month) between folders.",
  composes: [],
  toolsByLevel: {
    1: ["list_files", "move_file", "finish"],
    2: ["list_files", "move_file", "finish"],
    3: ["list_files", "move_file", "finish"],
    4: ["list_files", "move_file", "finish"],
    5: ["list_files", "move_file", "finish"],
  },
  generate(level, rng, b) {
    const [source = "", destination = "", second = ""] = b.pickFolders(3);
    const ext = rng.pick(EXTENSIONS);
    const month = level === 3 || level === 5 ? rng.pick(MONTHS) : null;
    const criteria: FileCriteria = { ext, month, exceptMonth: null };
    const sources = level >= 4 ? [source, second] : [source];
    const plan = { 1: [1, 2], 2: [2, 2], 3: [2, 3], 4: [3, 3], 5: [4, 4] }[level] ?? [1, 1];
    stockFolders(rng, b, sources, [destination], criteria, plan[0] ?? 1, plan[1] ?? 1);
    const from = sources.join(" and ");
    const what = month ? `${month} ${ext} files` : level === 1 ? `${ext} file` : `${ext} files`;
    const instruction =
      level === 1
        ? `Move the ${what} from ${from} to ${destination}.`
        : `Move all ${what} from ${from} to ${destination}.`;
    const work = planFileWork(b, sources, criteria, (file) => ({
      call: call("move_file", { file_id: file.id, folder: destination }),
      effect: effect.move(file.id, destination),
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

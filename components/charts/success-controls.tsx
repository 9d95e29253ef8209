"use client";

import { usePathname, useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";
import type { StatSplit } from "@/lib/charts/types";
import { successViewQuery, type SuccessView } from "@/lib/charts/view-params";

export type SuccessControlsProps = {
  /** The page's search params as the server saw them: every other view state is kept. */
  params: Record<string, string | string[] | undefined>;
  view: SuccessView;
  allSkills: string[];
  colors: Record<string, string>;
};

/**
 * Split and skill pickers of the success chart. They only write the URL; the server renders the
 * chart for it, so a copied or reloaded link shows the same view.
 */
export function SuccessControls({
  params,
  view: serverView,
  allSkills,
  colors,
}: SuccessControlsProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [isPending, startTransition] = useTransition();
  // The inputs show the choice at once; the server's view takes over when its render arrives.
  const [view, setView] = useOptimistic(serverView);
  const selected = view.skills === null ? allSkills : view.skills;

  const go = (next: SuccessView) => {
    const query = successViewQuery(params, next);
    startTransition(() => {
      setView(next);
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    });
  };
  const toggleSkill = (skill: string, isOn: boolean) => {
    const skills = allSkills.filter((s) => (s === skill ? isOn : selected.includes(s)));
    go({ split: view.split, skills: skills.length === allSkills.length ? null : skills });
  };

  return (
    <div className="flex flex-wrap items-start gap-x-6 gap-y-2 text-sm" aria-busy={isPending}>
      <fieldset className="flex items-center gap-3">
        <legend className="sr-only">Split</legend>
        {(
          [
            ["HELDOUT", "Held-out"],
            ["TRAIN", "Training"],
          ] as [StatSplit, string][]
        ).map(([split, label]) => (
          <label key={split} className="flex items-center gap-1.5">
            <input
              type="radio"
              name="success-split"
              value={split}
              checked={view.split === split}
              onChange={() => go({ split, skills: view.skills })}
              className="accent-accent"
            />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <legend className="sr-only">Skills</legend>
        {allSkills.map((skill) => (
          <label key={skill} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={selected.includes(skill)}
              onChange={(event) => toggleSkill(skill, event.target.checked)}
              style={{ accentColor: colors[skill] }}
            />
            {skill}
          </label>
        ))}
        {view.skills !== null && (
          <button
            type="button"
            onClick={() => go({ split: view.split, skills: null })}
            className="text-xs text-accent underline-offset-2 hover:underline"
          >
            All skills
          </button>
        )}
      </fieldset>
    </div>
  );
}

import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import type { TaskSort } from "@/lib/db/queries/generation-tasks";
import type { TaskFilter } from "@/lib/validations/task-filter";

const SORT_LABELS: Record<TaskSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  difficulty: "Easiest first (estimated)",
  "-difficulty": "Hardest first (estimated)",
  skill: "Skill",
};

const CHOICES = {
  review: ["PENDING", "APPROVED", "REJECTED"],
  signal: ["FORGETTING", "BOUNDARY", "RARE", "UNIFORM", "NONE"],
  origin: ["SEED", "SYNTHESIZED", "IMPORTED"],
  validation: ["PENDING", "VALID", "INVALID"],
} as const;

const LEGENDS = {
  review: "Review",
  signal: "Signal",
  origin: "Origin",
  validation: "Validation",
} as const;

const input = "rounded-md border border-border bg-bg px-2 py-1 text-sm";

/**
 * The table's filter as a plain GET form: submitting it writes the URL, so every view is a link,
 * and it works on read-only share pages without any client code.
 */
export function FilterForm({
  action,
  filter,
  sort,
  skills,
}: {
  action: string;
  filter: TaskFilter;
  sort: TaskSort;
  skills: string[];
}) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Filter tasks"
      className="space-y-3 rounded-lg border border-border px-4 py-3"
    >
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs text-muted">
          Search instructions
          <input
            type="search"
            name="q"
            defaultValue={filter.q ?? ""}
            maxLength={200}
            className={input}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Min difficulty
          <input
            type="number"
            name="minDifficulty"
            min={0}
            max={1}
            step={0.01}
            defaultValue={filter.minDifficulty ?? ""}
            className={`${input} w-24`}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Max difficulty
          <input
            type="number"
            name="maxDifficulty"
            min={0}
            max={1}
            step={0.01}
            defaultValue={filter.maxDifficulty ?? ""}
            className={`${input} w-24`}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Sort
          <select name="sort" defaultValue={sort} className={input}>
            {Object.entries(SORT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {skills.length > 0 ? (
          <CheckboxGroup legend="Skill" name="skill" options={skills} checked={filter.skill} />
        ) : null}
        {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((key) => (
          <CheckboxGroup
            key={key}
            legend={LEGENDS[key]}
            name={key}
            options={CHOICES[key]}
            checked={filter[key]}
          />
        ))}
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonClass({ size: "sm" })}>
          Apply filters
        </button>
        <Link href={action} className="text-sm text-muted underline hover:text-fg">
          Clear filters
        </Link>
      </div>
    </form>
  );
}

function CheckboxGroup({
  legend,
  name,
  options,
  checked,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  checked: readonly string[];
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <legend className="mb-1 text-xs text-muted">{legend}</legend>
      {options.map((option) => (
        <label key={option} className="flex items-center gap-1">
          <input
            type="checkbox"
            name={name}
            value={option}
            defaultChecked={checked.includes(option)}
          />
          {option === option.toUpperCase() ? option.toLowerCase() : option}
        </label>
      ))}
    </fieldset>
  );
}

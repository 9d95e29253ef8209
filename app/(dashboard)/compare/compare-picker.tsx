"use client";

import { useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";

export type PickableRun = { slug: string; name: string; mode: string };

/** Checkboxes that write `?runs=a,b,c`: the compared runs live in the URL, in the order picked. */
export function ComparePicker({
  runs,
  selected: serverSelected,
}: {
  runs: PickableRun[];
  selected: string[];
}) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  // Checked at once; the server's selection takes over when the new comparison is rendered.
  const [selected, setSelected] = useOptimistic(serverSelected);
  const toggle = (slug: string, isOn: boolean) => {
    const next = isOn ? [...selected, slug] : selected.filter((s) => s !== slug);
    startTransition(() => {
      setSelected(next);
      router.push(next.length ? `/compare?runs=${next.join(",")}` : "/compare", { scroll: false });
    });
  };
  return (
    <fieldset aria-busy={isPending} className="rounded-lg border border-border px-4 py-3 text-sm">
      <legend className="px-1 text-xs font-medium text-muted">Runs to compare</legend>
      {runs.length === 0 ? (
        <p className="text-muted">There are no runs yet: create one on the runs page.</p>
      ) : (
        <ul className="grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-3">
          {runs.map((run) => (
            <li key={run.slug}>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={selected.includes(run.slug)}
                  onChange={(event) => toggle(run.slug, event.target.checked)}
                  className="accent-accent"
                />
                <span className="truncate">{run.name}</span>
                <span className="text-xs text-muted">{run.mode}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

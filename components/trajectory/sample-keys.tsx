"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * j / k step to the next / previous sample of the group, g opens the group: reading a group's
 * rollouts one after another without reaching for the mouse. Navigation only, so it is the same
 * on a read-only share page.
 */
export function SampleKeys({
  previousHref,
  nextHref,
  groupHref,
}: {
  previousHref: string | null;
  nextHref: string | null;
  groupHref: string;
}) {
  const router = useRouter();
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      const href =
        event.key === "j"
          ? nextHref
          : event.key === "k"
            ? previousHref
            : event.key === "g"
              ? groupHref
              : null;
      if (!href) return;
      event.preventDefault();
      router.push(href);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [router, previousHref, nextHref, groupHref]);
  return null;
}

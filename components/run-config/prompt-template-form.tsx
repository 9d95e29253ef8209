"use client";

import { useActionState, useId, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import type { ActionResult, ActionState } from "@/lib/actions/safe-action";

type SaveAction = (
  prevState: unknown,
  input?: FormData,
) => Promise<ActionResult<{ promptTemplate: string }>>;

export type PromptTemplateFormProps = {
  slug: string;
  template: string;
  placeholders: ReadonlyArray<{ name: string; description: string }>;
  action: SaveAction;
};

/** The LLM synthesizer's prompt, editable; the saved text applies to rounds launched afterwards. */
export function PromptTemplateForm({
  slug,
  template,
  placeholders,
  action,
}: PromptTemplateFormProps) {
  const id = useId();
  // Controlled, so a refused save keeps what the person wrote (React resets uncontrolled fields).
  const [text, setText] = useState(template);
  const [state, formAction, isPending] = useActionState<
    ActionState<{ promptTemplate: string }>,
    FormData
  >(action, null);
  const errors = state && !state.ok ? state.fieldErrors?.promptTemplate : undefined;
  const saved = state?.ok ? state.promptTemplate : null;

  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="slug" value={slug} />
      <label htmlFor={`${id}-template`} className="block text-sm font-medium">
        Prompt template
      </label>
      <textarea
        id={`${id}-template`}
        name="promptTemplate"
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={24}
        spellCheck={false}
        required
        aria-invalid={errors ? true : undefined}
        aria-describedby={`${id}-help${errors ? ` ${id}-error` : ""}`}
        className="w-full rounded-md border border-border bg-bg p-3 font-mono text-xs leading-relaxed text-fg"
      />
      {errors && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-300">
          {errors.join(" ")}
        </p>
      )}
      <div id={`${id}-help`} className="space-y-1 text-xs text-muted">
        <p>Placeholders, filled for every candidate task:</p>
        <ul className="grid gap-x-6 gap-y-0.5 sm:grid-cols-2">
          {placeholders.map((p) => (
            <li key={p.name}>
              <code className="text-fg">{`{{${p.name}}}`}</code> — {p.description}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonClass()} disabled={isPending}>
          {isPending ? "Saving…" : "Save template"}
        </button>
        <p role="status" aria-live="polite" className="text-sm">
          {saved !== null && (
            <span className="text-emerald-700 dark:text-emerald-300">
              Saved. Rounds launched from now on use this template.
            </span>
          )}
          {state && !state.ok && !errors && (
            <span className="text-red-700 dark:text-red-300">{state.error}</span>
          )}
        </p>
      </div>
    </form>
  );
}

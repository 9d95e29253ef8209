"use client";

import {
  startTransition,
  useActionState,
  useEffect,
  useRef,
  type FormEvent,
  type ReactNode,
} from "react";
import { buttonClass } from "@/components/ui/button";
import type { ActionState } from "@/lib/actions/safe-action";
import { createConnectionAction } from "./actions";

const kindOptions = {
  openai: "OpenAI-compatible endpoint (agent, synthesizer)",
  "http-environment": "HTTP environment server",
  "trainer-webhook": "External trainer webhook",
} as const;

const inputClass =
  "w-full rounded-md border border-border bg-bg px-2.5 py-1.5 text-sm outline-none focus:border-accent focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-600";

/**
 * Adds a connection. The key field is a password field; after saving, the form is cleared and the
 * table shows only the key's last 4 characters.
 */
export function ConnectionForm({ runs }: { runs: { id: number; name: string }[] }) {
  const [state, formAction, isPending] = useActionState<
    ActionState<{ message?: string }>,
    FormData
  >(createConnectionAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (state?.ok) formRef.current?.reset();
    else if (state) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [state]);

  // A transition instead of the form's own action keeps what was typed after a refusal; the form
  // is cleared (the key with it) once the connection is saved.
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => formAction(formData));
  }

  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={handleSubmit}
      noValidate
      aria-labelledby="new-connection-heading"
      className="space-y-4 rounded-lg border border-border bg-panel p-4"
    >
      <h2 id="new-connection-heading" className="text-base font-semibold">
        Add a connection
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="name" label="Name" errors={errors} hint="What run configs refer to it by">
          {(props) => <input {...props} type="text" autoComplete="off" maxLength={63} />}
        </Field>
        <Field name="kind" label="Kind" errors={errors}>
          {(props) => (
            <select {...props} defaultValue="openai">
              {Object.entries(kindOptions).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field name="baseUrl" label="Base URL" errors={errors}>
          {(props) => (
            <input
              {...props}
              type="url"
              autoComplete="off"
              placeholder="http://localhost:8000/v1"
            />
          )}
        </Field>
        <Field name="model" label="Model (optional)" errors={errors}>
          {(props) => <input {...props} type="text" autoComplete="off" />}
        </Field>
        <Field
          name="apiKey"
          label="API key (optional)"
          errors={errors}
          hint="Stored encrypted; never shown again"
        >
          {(props) => <input {...props} type="password" autoComplete="new-password" />}
        </Field>
        <Field name="runId" label="Scope" errors={errors}>
          {(props) => (
            <select {...props} defaultValue="">
              <option value="">Whole workspace</option>
              {runs.map((run) => (
                <option key={run.id} value={run.id}>
                  Run: {run.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isPending} className={buttonClass()}>
          Save connection
        </button>
        <p role="status" aria-live="polite" className="text-sm">
          {isPending ? (
            <span className="text-muted">Saving…</span>
          ) : state && !state.ok ? (
            <span className="text-red-700 dark:text-red-300">{state.error}</span>
          ) : state?.ok ? (
            <span>{state.message}</span>
          ) : null}
        </p>
      </div>
    </form>
  );
}

type ControlProps = {
  id: string;
  name: string;
  className: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
};

function Field({
  name,
  label,
  hint,
  errors,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  errors: Record<string, string[]>;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = `connection-${name}`;
  const fieldErrors = errors[name];
  const describedBy =
    [hint ? `${id}-hint` : null, fieldErrors ? `${id}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium">
        {label}
      </label>
      {children({
        id,
        name,
        className: inputClass,
        "aria-invalid": Boolean(fieldErrors),
        "aria-describedby": describedBy,
      })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {fieldErrors && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700 dark:text-red-300">
          {fieldErrors.join(". ")}
        </p>
      )}
    </div>
  );
}

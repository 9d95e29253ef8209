"use client";

import {
  startTransition,
  useActionState,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from "react";
import type { ActionState } from "@/lib/actions/safe-action";
import type { RunConfig } from "@/lib/validations/run-config";
import { createRunAction } from "../actions";

export type NewRunDefaults = Pick<
  RunConfig,
  "mode" | "seed" | "tasksPerRound" | "groupSize" | "synthesisBudget" | "replayFraction"
> & { reviewMode: RunConfig["review"]["mode"] };

const modeOptions: Record<RunConfig["mode"], string> = {
  coevolve: "Co-evolve: synthesize tasks aimed at the agent's weaknesses",
  static: "Static: train on the seed pool only (baseline)",
  uniform: "Uniform: fresh tasks drawn evenly over skills (control)",
};

const reviewOptions: Record<RunConfig["review"]["mode"], string> = {
  auto: "Auto: approve every valid task",
  "auto-band": "Auto within a difficulty band",
  manual: "Manual: people approve each task",
};

/** A saved workspace connection the Advanced section offers (never its key). */
export type ConnectionChoice = {
  name: string;
  kind: "openai" | "http-environment";
  baseUrl: string;
  model: string | null;
};

type EndpointPrefix = "agent" | "synthesizer" | "environment";

type FieldName =
  | keyof NewRunDefaults
  | "name"
  | `${EndpointPrefix}${"Kind" | "BaseUrl" | "Model" | "Connection"}`
  | "agentSendTaskId"
  | "synthesizerSendContext";

/**
 * The "New run" disclosure on the runs page. Validation happens on the server (the run config
 * schema is the engine's); errors come back per field and are shown beside it. On success the
 * action redirects to the new run's page.
 */
export function NewRunForm({
  defaults,
  connections = [],
  children,
}: {
  defaults: NewRunDefaults;
  connections?: ConnectionChoice[];
  children: ReactNode;
}) {
  const [isOpen, setOpen] = useState(false);
  const [state, formAction, isPending] = useActionState<ActionState, FormData>(
    createRunAction,
    null,
  );
  const formRef = useRef<HTMLFormElement>(null);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (state && !state.ok) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [state]);

  // Submitting through a transition instead of the form's own action keeps what was typed after a
  // refusal (React resets uncontrolled fields after a form action); without JS the action still works.
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => formAction(formData));
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        {children}
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls="new-run-panel"
          onClick={() => setOpen((open) => !open)}
          className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg shadow-sm hover:opacity-90"
        >
          New run
        </button>
      </div>
      <div id="new-run-panel" hidden={!isOpen}>
        <form
          ref={formRef}
          action={formAction}
          onSubmit={handleSubmit}
          noValidate
          aria-labelledby="new-run-heading"
          className="space-y-4 rounded-lg border border-border bg-panel p-4"
        >
          <div>
            <h2 id="new-run-heading" className="text-base font-semibold">
              New run
            </h2>
            <p className="text-xs text-muted">
              Generation 0 (seed pool, held-out set, base policy) is computed as soon as the run is
              created. Everything not on this form takes its default.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field name="name" label="Name" errors={errors} className="sm:col-span-2">
              {(props) => (
                <input
                  {...props}
                  type="text"
                  autoComplete="off"
                  maxLength={120}
                  placeholder="e.g. co-evolve, seed 1"
                />
              )}
            </Field>
            <Field name="mode" label="Mode" errors={errors} className="sm:col-span-2">
              {(props) => (
                <select {...props} defaultValue={defaults.mode}>
                  {Object.entries(modeOptions).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <NumberField
              name="tasksPerRound"
              label="Tasks per round"
              hint="Pool slots, one GRPO group each"
              defaultValue={defaults.tasksPerRound}
              min={1}
              errors={errors}
            />
            <NumberField
              name="groupSize"
              label="Group size (G)"
              hint="Rollouts per task per round"
              defaultValue={defaults.groupSize}
              min={2}
              errors={errors}
            />
            <NumberField
              name="synthesisBudget"
              label="Synthesis budget"
              hint="Candidate tasks per round"
              defaultValue={defaults.synthesisBudget}
              min={0}
              errors={errors}
            />
            <NumberField
              name="replayFraction"
              label="Replay fraction"
              hint="Share of each pool replayed, 0–1"
              defaultValue={defaults.replayFraction}
              min={0}
              max={1}
              step={0.05}
              errors={errors}
            />
            <Field name="reviewMode" label="Review" errors={errors} className="sm:col-span-2">
              {(props) => (
                <select {...props} defaultValue={defaults.reviewMode}>
                  {Object.entries(reviewOptions).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <NumberField
              name="seed"
              label="Seed"
              hint="Same seed, same world and data"
              defaultValue={defaults.seed}
              min={0}
              errors={errors}
            />
          </div>
          <AdvancedFields connections={connections} errors={errors} />
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="submit"
              disabled={isPending}
              className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg shadow-sm hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50"
            >
              Create run
            </button>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="rounded-md border border-border bg-bg px-3 py-1.5 text-sm hover:bg-panel"
            >
              Cancel
            </button>
            <p role="status" aria-live="polite" className="text-sm">
              {isPending ? (
                <span className="text-muted">Creating the run…</span>
              ) : state && !state.ok ? (
                <span className="text-red-700 dark:text-red-300">{state.error}</span>
              ) : null}
            </p>
          </div>
        </form>
      </div>
    </div>
  );
}

/**
 * Where the agent, the synthesizer and the environment run. Collapsed by default: the builtin ones
 * need nothing. Keys are never typed here, only the name of a saved connection (Settings →
 * Connections).
 */
function AdvancedFields({
  connections,
  errors,
}: {
  connections: ConnectionChoice[];
  errors: Record<string, string[]>;
}) {
  const hasError = Object.keys(errors).some((name) =>
    /^(agent|synthesizer|environment)/.test(name),
  );
  const [agentKind, setAgentKind] = useState<"builtin" | "openai">("builtin");
  const [synthesizerKind, setSynthesizerKind] = useState<"builtin" | "llm">("builtin");
  const [environmentKind, setEnvironmentKind] = useState<"toolworld" | "http">("toolworld");

  return (
    <details open={hasError || undefined} className="rounded-md border border-border bg-bg p-3">
      <summary className="cursor-pointer text-sm font-medium">Advanced</summary>
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-muted">
            Agent
          </legend>
          <Field name="agentKind" label="Agent" errors={errors}>
            {(props) => (
              <select
                {...props}
                value={agentKind}
                onChange={(event) => setAgentKind(event.target.value as typeof agentKind)}
              >
                <option value="builtin">Builtin policy (in-process)</option>
                <option value="openai">OpenAI-compatible endpoint</option>
              </select>
            )}
          </Field>
          {agentKind === "openai" && (
            <>
              <EndpointFields
                prefix="agent"
                title="Agent"
                connectionKind="openai"
                connectionHint="Holds the API key; none for an endpoint without one"
                baseUrlHint="Up to /v1, e.g. http://gpu-1:8000/v1"
                model={{
                  label: "Model",
                  hint: "The served model name; {run} and {version} are filled in",
                }}
                connections={connections}
                errors={errors}
              />
              <CheckboxField
                name="agentSendTaskId"
                label="Send task ids"
                hint="Only for this dashboard's own /api/openai/v1 (hosted APIs may refuse it)"
              />
            </>
          )}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-muted">
            Synthesizer
          </legend>
          <Field name="synthesizerKind" label="Synthesizer" errors={errors}>
            {(props) => (
              <select
                {...props}
                value={synthesizerKind}
                onChange={(event) =>
                  setSynthesizerKind(event.target.value as typeof synthesizerKind)
                }
              >
                <option value="builtin">Builtin (rule-based)</option>
                <option value="llm">LLM (OpenAI-compatible)</option>
              </select>
            )}
          </Field>
          {synthesizerKind === "llm" && (
            <>
              <EndpointFields
                prefix="synthesizer"
                title="Synthesizer"
                connectionKind="openai"
                connectionHint="Holds the API key; none for an endpoint without one"
                baseUrlHint="Up to /v1; needs structured output (vLLM, SGLang, Ollama, OpenAI)"
                model={{
                  label: "Synthesizer model",
                  hint: "The served model name; the prompt is editable on the run's config page",
                }}
                connections={connections}
                errors={errors}
              />
              <CheckboxField
                name="synthesizerSendContext"
                label="Send synthesis context (only for this project's own policy endpoint)"
                hint="Adds the signal and source task as metadata.coevolve_synthesis; hosted APIs may refuse it"
              />
            </>
          )}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-muted">
            Environment
          </legend>
          <Field name="environmentKind" label="Environment" errors={errors}>
            {(props) => (
              <select
                {...props}
                value={environmentKind}
                onChange={(event) =>
                  setEnvironmentKind(event.target.value as typeof environmentKind)
                }
              >
                <option value="toolworld">ToolWorld (builtin)</option>
                <option value="http">HTTP environment server</option>
              </select>
            )}
          </Field>
          {environmentKind === "http" && (
            <EndpointFields
              prefix="environment"
              title="Environment"
              connectionKind="http-environment"
              connectionHint="Its key is sent as a bearer token"
              baseUrlHint="Where the coevolve-env/1 protocol is served"
              connections={connections}
              errors={errors}
            />
          )}
        </fieldset>
      </div>
    </details>
  );
}

/**
 * A connection select, a base URL and (for OpenAI-compatible endpoints) a model, named
 * `<prefix>Connection`, `<prefix>BaseUrl` and `<prefix>Model`. Picking a connection fills the
 * endpoint fields it knows, unless something is typed there.
 */
function EndpointFields({
  prefix,
  title,
  connectionKind,
  connectionHint,
  baseUrlHint,
  model,
  connections,
  errors,
}: {
  prefix: EndpointPrefix;
  title: string;
  connectionKind: ConnectionChoice["kind"];
  connectionHint: string;
  baseUrlHint: string;
  model?: { label: string; hint: string };
  connections: ConnectionChoice[];
  errors: Record<string, string[]>;
}) {
  const baseUrl = useRef<HTMLInputElement>(null);
  const modelInput = useRef<HTMLInputElement>(null);
  const choices = connections.filter((c) => c.kind === connectionKind);

  function fillFrom(name: string) {
    const chosen = choices.find((c) => c.name === name);
    if (!chosen) return;
    for (const [input, value] of [
      [baseUrl.current, chosen.baseUrl],
      [modelInput.current, chosen.model],
    ] as const) {
      if (input && !input.value && value) input.value = value;
    }
  }

  return (
    <>
      <Field
        name={`${prefix}Connection`}
        label={`${title} connection`}
        hint={connectionHint}
        errors={errors}
      >
        {(props) => (
          <select {...props} defaultValue="" onChange={(event) => fillFrom(event.target.value)}>
            <option value="">No connection (no API key)</option>
            {choices.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} — {c.baseUrl}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        name={`${prefix}BaseUrl`}
        label={`${title} base URL`}
        hint={baseUrlHint}
        errors={errors}
      >
        {(props) => <input {...props} ref={baseUrl} type="url" autoComplete="off" />}
      </Field>
      {model && (
        <Field name={`${prefix}Model`} label={model.label} hint={model.hint} errors={errors}>
          {(props) => <input {...props} ref={modelInput} type="text" autoComplete="off" />}
        </Field>
      )}
    </>
  );
}

/** A checkbox whose hint describes it rather than lengthening its name. */
function CheckboxField({ name, label, hint }: { name: FieldName; label: string; hint: string }) {
  const id = `new-run-${name}`;
  return (
    <div className="flex items-start gap-2 text-xs">
      <input
        id={id}
        type="checkbox"
        name={name}
        value="on"
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div>
        <label htmlFor={id}>{label}</label>
        <p id={`${id}-hint`} className="text-muted">
          {hint}
        </p>
      </div>
    </div>
  );
}

const inputClass =
  "w-full rounded-md border border-border bg-bg px-2.5 py-1.5 text-sm tabular-nums outline-none focus:border-accent focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-red-600";

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
  className = "",
  children,
}: {
  name: FieldName;
  label: string;
  hint?: string;
  errors: Record<string, string[]>;
  className?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = `new-run-${name}`;
  const fieldErrors = errors[name];
  const describedBy =
    [hint ? `${id}-hint` : null, fieldErrors ? `${id}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <div className={`space-y-1 ${className}`}>
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

function NumberField({
  name,
  label,
  hint,
  defaultValue,
  min,
  max,
  step = 1,
  errors,
}: {
  name: FieldName;
  label: string;
  hint: string;
  defaultValue: number;
  min?: number;
  max?: number;
  step?: number;
  errors: Record<string, string[]>;
}) {
  return (
    <Field name={name} label={label} hint={hint} errors={errors}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode={step < 1 ? "decimal" : "numeric"}
          defaultValue={defaultValue}
          min={min}
          max={max}
          step={step}
        />
      )}
    </Field>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PromptTemplateForm } from "@/components/run-config/prompt-template-form";
import { PROMPT_PLACEHOLDERS } from "@/lib/engine/synthesizers/llm-prompt";
import { llmSynthesizerOf, RunConfigSchema } from "@/lib/validations/run-config";
import { loadRun } from "../load-run";
import { updatePromptTemplateAction } from "./actions";

type ConfigPageProps = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: ConfigPageProps): Promise<Metadata> {
  const run = await loadRun((await params).slug);
  return { title: run ? `Configuration · ${run.name}` : "Configuration" };
}

/** Keys are never stored in a config, but a hand-written one could hold one: never show it. */
const SECRET_KEY = /api[-_]?key|secret|token|password|authorization/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      SECRET_KEY.test(key) ? "[hidden]" : withoutSecrets(v),
    ]),
  );
}

export default async function RunConfigPage({ params }: ConfigPageProps) {
  const run = await loadRun((await params).slug);
  if (!run) notFound();
  const parsed = RunConfigSchema.safeParse(run.config ?? {});
  const config = parsed.success ? parsed.data : null;
  const llm = config ? llmSynthesizerOf(config) : null;
  const shown = config
    ? llm
      ? { ...config, synthesizer: { ...llm, promptTemplate: "(see Prompt template below)" } }
      : config
    : run.config;

  return (
    <div className="space-y-8">
      <header className="space-y-1">
        <nav aria-label="Breadcrumb" className="text-xs text-muted">
          <Link href="/" className="hover:text-fg">
            Runs
          </Link>
          <span aria-hidden="true"> / </span>
          <Link href={`/runs/${run.slug}`} className="hover:text-fg">
            {run.slug}
          </Link>
          <span aria-hidden="true"> / </span>
          <span>Configuration</span>
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight">Configuration</h1>
        <p className="max-w-prose text-sm text-muted">
          Everything this run was configured with, defaults filled in. API keys live in saved
          connections, never here.
        </p>
      </header>

      <section aria-labelledby="settings-heading" className="space-y-3">
        <h2 id="settings-heading" className="text-lg font-semibold">
          Settings
        </h2>
        {!parsed.success && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            The stored configuration does not parse:{" "}
            {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
          </p>
        )}
        <pre
          aria-label="Run configuration"
          tabIndex={0}
          className="max-h-[32rem] overflow-auto rounded-md border border-border bg-panel p-4 font-mono text-xs text-fg"
        >
          {JSON.stringify(withoutSecrets(shown), null, 2)}
        </pre>
      </section>

      <section aria-labelledby="synthesizer-heading" className="space-y-3">
        <h2 id="synthesizer-heading" className="text-lg font-semibold">
          Synthesizer prompt
        </h2>
        {llm ? (
          <>
            <p className="max-w-prose text-sm text-muted">
              The LLM synthesizer ({llm.model} at {llm.baseUrl}) fills this template for every
              candidate task and asks for a <code>coevolve_task</code> JSON object; each candidate
              is then validated by running its reference solution.
            </p>
            <PromptTemplateForm
              slug={run.slug}
              template={llm.promptTemplate}
              placeholders={Object.entries(PROMPT_PLACEHOLDERS).map(([name, description]) => ({
                name,
                description,
              }))}
              action={updatePromptTemplateAction}
            />
          </>
        ) : (
          <p className="max-w-prose text-sm text-muted">
            This run uses the builtin rule-based synthesizer, which has no prompt. Runs configured
            with an LLM synthesizer show and edit their prompt template here.
          </p>
        )}
      </section>
    </div>
  );
}

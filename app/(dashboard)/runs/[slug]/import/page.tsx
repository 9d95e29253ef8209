import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ExportButton } from "@/components/export/export-button";
import { ImportForm } from "@/components/import/import-form";
import { loadRun } from "../load-run";
import { importTasksAction } from "./actions";

type ImportPageProps = { params: Promise<{ slug: string }> };

export const metadata: Metadata = { title: "Import seed tasks" };

export default async function ImportPage({ params }: ImportPageProps) {
  const { slug } = await params;
  const run = await loadRun(slug);
  if (!run) notFound();
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
          <span>Import</span>
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight">Import seed tasks</h1>
        <p className="max-w-prose text-sm text-muted">
          One task per line (JSONL), or CSV with a header row: <code>instruction</code>,{" "}
          <code>skill</code>, <code>level</code>, <code>spec</code> and optionally{" "}
          <code>reference</code> (JSON cells) — the format the tasks export writes. Every task is
          validated like a synthesized one; if any line is bad nothing is imported. Imported tasks
          join generation 0 beside the seed pool and enter later training pools as replay.
        </p>
      </header>
      <section aria-labelledby="import-heading" className="space-y-3">
        <h2 id="import-heading" className="text-lg font-semibold">
          Upload
        </h2>
        <ImportForm slug={run.slug} action={importTasksAction} />
      </section>
      <section aria-labelledby="export-heading" className="space-y-3">
        <h2 id="export-heading" className="text-lg font-semibold">
          Export this run
        </h2>
        <ExportButton slug={run.slug} />
      </section>
    </div>
  );
}

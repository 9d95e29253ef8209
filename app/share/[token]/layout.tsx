import type { Metadata } from "next";
import type { ReactNode } from "react";
import { loadShare, sharedViewContext } from "./load-share";

type ShareLayoutProps = { children: ReactNode; params: Promise<{ token: string }> };

export async function generateMetadata({
  params,
}: Omit<ShareLayoutProps, "children">): Promise<Metadata> {
  const share = await loadShare((await params).token);
  return { title: share ? `${share.run.name} (shared)` : "Link not valid" };
}

export default async function ShareLayout({ children, params }: ShareLayoutProps) {
  // Resolving here, outside any Suspense boundary, lets an invalid token answer with HTTP 404.
  await sharedViewContext(params);
  return (
    <div className="space-y-6">
      <p
        role="note"
        className="rounded-md border border-sky-600/30 bg-sky-600/10 px-3 py-2 text-sm text-sky-800 dark:text-sky-200"
      >
        <strong className="font-semibold">Read-only shared view.</strong> You can browse this run;
        nothing here can be changed.
      </p>
      {children}
    </div>
  );
}

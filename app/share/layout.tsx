import type { Metadata } from "next";
import type { ReactNode } from "react";

/**
 * Shared views: the token in the URL is the only credential, so nothing here may leak it (no
 * referrer, no indexing) or lead out of it (no dashboard navigation; see proxy.ts for the rest).
 */
export const metadata: Metadata = {
  robots: { index: false, follow: false, nocache: true },
  referrer: "no-referrer",
};

export default function ShareRootLayout({ children }: { children: ReactNode }) {
  return <main className="mx-auto max-w-7xl px-6 py-8">{children}</main>;
}

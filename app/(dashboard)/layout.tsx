import Link from "next/link";
import type { ReactNode } from "react";

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-border">
        <nav
          aria-label="Main"
          className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3 text-sm"
        >
          <Link href="/" className="font-semibold tracking-tight">
            CoEvolve Studio
          </Link>
          <Link href="/" className="text-muted hover:text-fg">
            Runs
          </Link>
          <Link href="/compare" className="text-muted hover:text-fg">
            Compare
          </Link>
          <Link href="/settings/connections" className="text-muted hover:text-fg">
            Connections
          </Link>
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-6 py-8">{children}</main>
    </>
  );
}

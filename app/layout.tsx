import type { Metadata } from "next";
import localFont from "next/font/local";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

// Self-hosted from npm: Google Fonts are unreachable from where this is built and run.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "CoEvolve Studio", template: "%s · CoEvolve Studio" },
  description: "Run and curate agent–data co-evolution for LLM agents.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-screen font-sans antialiased">
        <Providers>
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
        </Providers>
      </body>
    </html>
  );
}

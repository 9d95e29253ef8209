import type { Metadata } from "next";
import localFont from "next/font/local";
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
        {/* The dashboard's navigation lives in app/(dashboard)/layout.tsx: shared views (app/share)
            must not link into the dashboard. */}
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

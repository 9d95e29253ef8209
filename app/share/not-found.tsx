import type { Metadata } from "next";

// noindex comes from app/share/layout.tsx (and Next adds its own to every 404).
export const metadata: Metadata = { title: "Link not valid" };

/**
 * One page for unknown, revoked, expired and malformed tokens: telling them apart would tell a
 * guesser which tokens once existed.
 */
export default function ShareLinkNotValid() {
  return (
    <div className="mx-auto max-w-xl space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">This link is not valid</h1>
      <p className="text-muted">
        It may have been revoked or have expired, or it was copied incompletely. Ask the person who
        shared it for a new link.
      </p>
    </div>
  );
}

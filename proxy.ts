import { NextResponse, type NextRequest } from "next/server";

/**
 * Shared views (`/share/<token>`) are read-only by construction, not by convention: a Next server
 * action is a POST to the page's URL with a `Next-Action` header, and any action id works on any
 * page, so every non-GET/HEAD request under /share is refused here, before routing. Every response
 * also keeps the token (it is in the URL) out of Referer headers and search indexes.
 */
const READ_METHODS = new Set(["GET", "HEAD"]);

const SHARE_HEADERS = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
};

export function proxy(request: NextRequest) {
  if (!READ_METHODS.has(request.method)) {
    return NextResponse.json(
      { error: "Shared views are read-only: this request was refused." },
      { status: 403, headers: { ...SHARE_HEADERS, Allow: "GET, HEAD" } },
    );
  }
  const response = NextResponse.next();
  for (const [name, value] of Object.entries(SHARE_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = { matcher: ["/share", "/share/:path*"] };

import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

const url = "http://localhost/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

describe("proxy for shared views", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])("refuses %s with 403", async (method) => {
    const response = proxy(
      new NextRequest(url, { method, headers: { "Next-Action": "0123456789abcdef" } }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: "Shared views are read-only: this request was refused.",
    });
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it.each(["GET", "HEAD"])("lets %s through with no-referrer and noindex headers", (method) => {
    const response = proxy(new NextRequest(url, { method }));
    // NextResponse.next() marks a pass-through; any other status would be a refusal or a rewrite.
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
  });

  it("runs for /share and everything under it", () => {
    expect(config.matcher).toEqual(["/share", "/share/:path*"]);
  });
});

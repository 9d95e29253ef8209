import { randomBytes } from "node:crypto";
import { expect, test, type Request } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { SERVER_ACTION_MARKERS } from "./support/pages";
import { withE2eDatabase } from "./support/database";

test.describe.configure({ mode: "serial" });

/** Controls that change a run: none may exist in a shared view (names are issue 5's contract). */
const ACTION_CONTROL_NAMES = [
  "Launch round",
  "Approve",
  "Reject",
  "Review",
  "Share",
  "New run",
  "Archive run",
  "Create link",
  "Revoke",
];

type RunCounts = { shareLinks: number; generations: number; auditEvents: number };

async function countsOf(runName: string): Promise<RunCounts> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<RunCounts>(
      `SELECT (SELECT count(*) FROM "ShareLink" s WHERE s."runId" = r.id)::int AS "shareLinks",
              (SELECT count(*) FROM "Generation" g WHERE g."runId" = r.id)::int AS generations,
              (SELECT count(*) FROM "AuditEvent" a WHERE a."runId" = r.id)::int AS "auditEvents"
         FROM "Run" r WHERE r.name = $1`,
      [runName],
    );
    return rows[0]!;
  });
}

test("share a run read-only, refuse crafted actions, then revoke the link", async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const name = `Share e2e ${randomBytes(3).toString("hex")}`;
  const actionRequests: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.headers()["next-action"]) {
      actionRequests.push(request);
    }
  });

  await page.goto("/");
  await page.getByRole("button", { name: "New run" }).click();
  const form = page.getByRole("form", { name: "New run" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create run" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const runUrl = page.url();

  // The dashboard renders action-bound forms: the marker check below can see them when present.
  const dashboardHtml = await (await page.request.get(runUrl)).text();
  expect(dashboardHtml).toMatch(SERVER_ACTION_MARKERS);

  // Create a link in the Share dialog.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("No links yet.")).toBeVisible();
  await expectNoSeriousA11yViolations(page, "dialog");
  await dialog.getByLabel("Label (optional)").fill("For the reading group");
  await dialog.getByLabel("Expires").selectOption({ label: "In 30 days" });
  actionRequests.length = 0;
  await dialog.getByRole("button", { name: "Create link" }).click();
  const urlField = dialog.getByLabel("New share link (shown only once)");
  await expect(urlField).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const shareUrl = await urlField.inputValue();
  const token = shareUrl.split("/share/")[1]!;
  await expect(dialog.getByRole("status").first()).toHaveText(
    "Link created. Copy it now: it is shown only once.",
  );
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("status").first()).toHaveText("Link copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);

  const row = dialog.getByRole("row", { name: /For the reading group/ });
  await expect(row.getByRole("cell").nth(2)).toHaveText("active");
  await expect(row.getByRole("cell").nth(1)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expectNoSeriousA11yViolations(page, "dialog");
  const createRequest = actionRequests.at(-1)!;
  expect(createRequest).toBeDefined();
  // The token is not kept anywhere the run page renders after the fact.
  expect(await (await page.request.get(runUrl)).text()).not.toContain(token);

  // A fresh browser (no cookies, no history) opens the shared run.
  const visitor = await browser.newContext();
  const shared = await visitor.newPage();
  const response = await shared.goto(shareUrl);
  expect(response!.status()).toBe(200);
  expect(response!.headers()["referrer-policy"]).toBe("no-referrer");
  expect(response!.headers()["x-robots-tag"]).toContain("noindex");
  await expect(shared.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(shared.getByText("Read-only shared view.")).toBeVisible();
  await expect(shared.getByRole("heading", { level: 1, name })).toBeVisible();
  for (const control of ACTION_CONTROL_NAMES) {
    await expect(shared.getByRole("button", { name: control })).toHaveCount(0);
  }
  await expect(shared.locator("form")).toHaveCount(0);
  // Every link stays inside the share: none leads to the dashboard.
  const hrefs = await shared
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
  expect(hrefs.filter((href) => !href.startsWith(`/share/${token}`))).toEqual([]);
  expect(hrefs.length).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(shared);

  // No page of the share carries a server action reference, not even in its RSC payload. (This
  // run has only generation 0; e2e/journey.spec.ts checks a shared task, trajectory and group.)
  for (const path of ["", "/generations/0"]) {
    const page = await visitor.request.get(`${shareUrl}${path}`);
    expect(page.status(), path).toBe(200);
    expect(await page.text(), path).not.toMatch(SERVER_ACTION_MARKERS);
  }

  // Crafted requests: the dashboard's own "create link" action, replayed against the share.
  const before = await countsOf(name);
  const replayHeaders = await createRequest.allHeaders();
  const actionHeaders = Object.fromEntries(
    Object.entries(replayHeaders).filter(([header]) =>
      ["next-action", "content-type", "accept", "next-router-state-tree"].includes(header),
    ),
  );
  const body = createRequest.postDataBuffer()!;
  for (const path of ["", "/generations/0", "/tasks/1"]) {
    const refused = await visitor.request.post(`${shareUrl}${path}`, {
      headers: actionHeaders,
      data: body,
    });
    expect(refused.status(), path).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Shared views are read-only: this request was refused.",
    });
  }
  for (const method of ["PUT", "DELETE", "PATCH"]) {
    const refused = await visitor.request.fetch(shareUrl, { method, headers: actionHeaders });
    expect(refused.status(), method).toBe(403);
  }
  expect(await countsOf(name)).toEqual(before);
  // The same replay against the dashboard page does act: the refusal above is the share's doing.
  // (Relabelled, so the two links are told apart below; multipart parts carry no lengths.)
  const relabelled = Buffer.from(
    body.toString("utf8").replace("For the reading group", "Replayed by the test"),
  );
  const control = await page.request.post(runUrl, { headers: actionHeaders, data: relabelled });
  expect(control.status()).toBe(200);
  expect((await countsOf(name)).shareLinks).toBe(before.shareLinks + 1);

  // Revoke in the dashboard (it asks once more).
  await page.reload();
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const reopened = page.getByRole("dialog", { name: `Share “${name}”` });
  const readingGroup = reopened.getByRole("row", { name: /For the reading group/ });
  await readingGroup.getByRole("button", { name: "Revoke For the reading group" }).click();
  await readingGroup.getByRole("button", { name: "Revoke For the reading group now" }).click();
  await expect(readingGroup.getByRole("cell").nth(2)).toHaveText("revoked");
  await expect(readingGroup.getByRole("button")).toHaveCount(0);
  await expect(reopened.getByRole("status").nth(1)).toHaveText("Revoked For the reading group.");
  const replayed = reopened.getByRole("row", { name: /Replayed by the test/ });
  await expect(replayed.getByRole("cell").nth(2)).toHaveText("active");

  // The shared page now refuses, with a 404, no content of the run, and no way into the dashboard.
  const revoked = await shared.reload();
  expect(revoked!.status()).toBe(404);
  await expect(
    shared.getByRole("heading", { level: 1, name: "This link is not valid" }),
  ).toBeVisible();
  await expect(shared.getByText(name)).toHaveCount(0);
  await expect(shared.locator("a[href]")).toHaveCount(0);
  const robots = await shared
    .locator('meta[name="robots"]')
    .evaluateAll((metas) => metas.map((meta) => meta.getAttribute("content")));
  expect(robots.length).toBeGreaterThan(0);
  expect(robots.every((content) => content?.includes("noindex"))).toBe(true);
  await expectNoSeriousA11yViolations(shared);
  const revokedSubpage = await visitor.request.get(`${shareUrl}/generations/0`);
  expect(revokedSubpage.status()).toBe(404);

  // Unknown and malformed tokens get the same page.
  for (const bad of [randomBytes(32).toString("base64url"), "abc", "%27%20OR%201%3D1"]) {
    const unknown = await shared.goto(`/share/${bad}`);
    expect(unknown!.status(), bad).toBe(404);
    await expect(
      shared.getByRole("heading", { level: 1, name: "This link is not valid" }),
    ).toBeVisible();
  }
  await visitor.close();
});

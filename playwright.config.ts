import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATABASE_URL_FILE = path.join(os.tmpdir(), `coevolve-e2e-${port}.database-url`);

export default defineConfig({
  testDir: "e2e",
  // Specs share one app and one database; running them one at a time keeps their views exact.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is unreachable from here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // The empty-database view can only be seen before any spec has created a run.
    {
      name: "empty-database",
      testMatch: /empty-database\.spec\.ts/,
      use: { browserName: "chromium" },
    },
    {
      name: "chromium",
      testIgnore: /empty-database\.spec\.ts/,
      dependencies: ["empty-database"],
      use: { browserName: "chromium" },
    },
  ],
  webServer: {
    // The real start command on a throwaway embedded Postgres, never the user's data.
    command: "node --import tsx scripts/start.ts --ephemeral",
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      PORT: String(port),
      DATABASE_URL: "",
      COEVOLVE_DATA_DIR: "",
      COEVOLVE_DATABASE_URL_FILE: E2E_DATABASE_URL_FILE,
      // Specs create the runs they need; the demo is tested on its own (lifecycle.spec.ts).
      COEVOLVE_DEMO: "0",
    },
  },
});

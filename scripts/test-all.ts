/**
 * `npm test`: every check CI runs, in CI's order — format, lint, typecheck, unit and integration
 * tests (Vitest, real Postgres), production build, end-to-end tests (Playwright, real Chromium).
 * Stops at the first failing step. Ends with one `N passed, N failed` line over all tests.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

type Step = { name: string; command: string[]; env?: Record<string, string> };

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "coevolve-test-reports-"));
const vitestReport = path.join(reportDir, "vitest.json");
const playwrightReport = path.join(reportDir, "playwright.json");
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const steps: Step[] = [
  { name: "format", command: ["npx", "prettier", "--check", "."] },
  { name: "lint", command: ["npx", "eslint", ".", "--max-warnings", "0"] },
  { name: "typecheck", command: ["npx", "tsc", "--noEmit"] },
  {
    name: "unit and integration tests",
    command: [
      "npx",
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${vitestReport}`,
    ],
  },
  { name: "build", command: ["npx", "next", "build"], env: { NEXT_TELEMETRY_DISABLED: "1" } },
  {
    name: "end-to-end tests",
    command: ["npx", "playwright", "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  },
];

function countVitest(): { passed: number; failed: number; skipped: number } {
  if (!fs.existsSync(vitestReport)) return { passed: 0, failed: 0, skipped: 0 };
  const report = JSON.parse(fs.readFileSync(vitestReport, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

function countPlaywright(): { passed: number; failed: number; skipped: number } {
  if (!fs.existsSync(playwrightReport)) return { passed: 0, failed: 0, skipped: 0 };
  const report = JSON.parse(fs.readFileSync(playwrightReport, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped,
  };
}

function summarize(): void {
  const vitest = countVitest();
  const playwright = countPlaywright();
  const passed = vitest.passed + playwright.passed;
  const failed = vitest.failed + playwright.failed;
  const skipped = vitest.skipped + playwright.skipped;
  console.log(
    `\nvitest: ${vitest.passed} passed, ${vitest.failed} failed; playwright: ${playwright.passed} passed, ${playwright.failed} failed`,
  );
  console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
}

if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}; the end-to-end tests need it.\n` +
      "Install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.",
  );
  process.exit(1);
}

const startedAt = Date.now();
for (const step of steps) {
  const stepStartedAt = Date.now();
  console.log(`\n▶ ${step.name}: ${step.command.join(" ")}`);
  const result = spawnSync(step.command[0]!, step.command.slice(1), {
    stdio: "inherit",
    env: { ...process.env, ...step.env },
  });
  const seconds = ((Date.now() - stepStartedAt) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${step.name} failed after ${seconds} s`);
    summarize();
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${step.name} (${seconds} s)`);
}
console.log(`\nall checks passed in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
summarize();
fs.rmSync(reportDir, { recursive: true, force: true });

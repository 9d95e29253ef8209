import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CliUsageError, parseEvolveArgs } from "./cli-args";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function evolve(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/evolve.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("parseEvolveArgs", () => {
  it("reads the documented flags with defaults for the rest", () => {
    expect(parseEvolveArgs([])).toEqual({
      mode: "coevolve",
      rounds: 10,
      seed: 1,
      json: false,
      help: false,
    });
    expect(
      parseEvolveArgs(["--mode", "static", "--rounds", "3", "--seed", "7", "--json"]),
    ).toMatchObject({
      mode: "static",
      rounds: 3,
      seed: 7,
      json: true,
    });
    expect(parseEvolveArgs(["--mode=uniform", "--rounds=0"])).toMatchObject({
      mode: "uniform",
      rounds: 0,
    });
  });

  it("rejects bad input with a message a person can act on", () => {
    expect(() => parseEvolveArgs(["--mode", "random"])).toThrow(
      'mode must be one of coevolve, static, uniform (got "random")',
    );
    expect(() => parseEvolveArgs(["--rounds", "2.5"])).toThrow(
      '--rounds must be a non-negative integer (got "2.5")',
    );
    expect(() => parseEvolveArgs(["--rounds", "-1"])).toThrow(CliUsageError);
    expect(() => parseEvolveArgs(["--seed"])).toThrow("--seed needs a value");
    expect(() => parseEvolveArgs(["--turbo"])).toThrow('unknown argument "--turbo"');
  });
});

describe("npm run evolve", () => {
  it("prints progress and, with --json, one parseable JSON object as the last line", () => {
    const { code, stdout } = evolve("--mode", "coevolve", "--rounds", "1", "--seed", "2", "--json");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    const result = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual([
      "mode",
      "seed",
      "rounds",
      "heldout",
      "trainRollouts",
      "trainSteps",
      "forgettingEvents",
      "sideEffectRate",
      "elapsedMs",
    ]);
    expect(result).toMatchObject({ mode: "coevolve", seed: 2, rounds: 1 });
    expect((result.heldout as unknown[]).length).toBe(2);
  });

  it("exits non-zero with a clear error on an unknown mode or a non-integer round count", () => {
    const mode = evolve("--mode", "sideways");
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain(
      'error: --mode must be one of coevolve, static, uniform (got "sideways")',
    );
    const rounds = evolve("--rounds", "ten");
    expect(rounds.code).toBe(2);
    expect(rounds.stderr).toContain('error: --rounds must be a non-negative integer (got "ten")');
    expect(mode.stdout).toBe("");
  });
});

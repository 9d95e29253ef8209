/**
 * Hyperparameter tuning on the DEV set — a different seeded task set from the held-out set, with
 * different run seeds (101+) from the ones reported (1–3). The held-out set is never evaluated here.
 *
 *   npx tsx scripts/tune-engine.ts                       # defaults, 3 modes × 3 dev seeds
 *   npx tsx scripts/tune-engine.ts --set trainerSettings.learningRate=0.5,1,2 --modes coevolve
 *
 * `--set path=v1,v2,…` (repeatable) sweeps a config field; values are parsed as JSON when possible.
 */
import { RUN_MODES, type RunConfigInput } from "../lib/validations/run-config";
import { runInMemory } from "../lib/engine/run";

type Sweep = { path: string; values: unknown[] };

function parseArgs(argv: string[]) {
  const sweeps: Sweep[] = [];
  let seeds = [101, 102, 103];
  let modes: string[] = [...RUN_MODES];
  let base: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1] ?? "";
    if (arg === "--set") {
      const [path = "", list = ""] = value.split("=");
      sweeps.push({ path, values: splitValues(list) });
      i++;
    } else if (arg === "--seeds") {
      seeds = value.split(",").map(Number);
      i++;
    } else if (arg === "--modes") {
      modes = value.split(",");
      i++;
    } else if (arg === "--config") {
      base = JSON.parse(value) as Record<string, unknown>;
      i++;
    } else {
      throw new Error(`unknown argument ${arg}`);
    }
  }
  if (seeds.some((s) => s >= 1 && s <= 3)) {
    throw new Error("seeds 1–3 are the reported seeds; tune on others");
  }
  return { sweeps, seeds, modes, base };
}

function splitValues(list: string): unknown[] {
  const parts = list.startsWith("[") ? [list] : list.split(",");
  return parts.map((p) => {
    try {
      return JSON.parse(p) as unknown;
    } catch {
      return p;
    }
  });
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split(".");
  let node = target;
  for (const k of keys.slice(0, -1)) {
    node[k] = { ...((node[k] as Record<string, unknown>) ?? {}) };
    node = node[k] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

function combinations(sweeps: Sweep[]): Array<Array<[string, unknown]>> {
  let out: Array<Array<[string, unknown]>> = [[]];
  for (const s of sweeps)
    out = out.flatMap((c) => s.values.map((v) => [...c, [s.path, v] as [string, unknown]]));
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (x: number) => (100 * x).toFixed(1).padStart(5);

async function main() {
  const { sweeps, seeds, modes, base } = parseArgs(process.argv.slice(2));
  for (const combo of combinations(sweeps)) {
    const overrides: Record<string, unknown> = structuredClone(base);
    for (const [path, value] of combo) setPath(overrides, path, value);
    const label = combo.map(([p, v]) => `${p}=${JSON.stringify(v)}`).join(" ") || "defaults";
    console.log(`\n# ${label}`);
    for (const mode of modes) {
      const finals: number[] = [];
      const last3: number[] = [];
      let steps = 0;
      let side = 0;
      let base0 = 0;
      for (const seed of seeds) {
        const { result } = await runInMemory({ ...overrides, mode, seed } as RunConfigInput, {
          evaluationSplit: "dev",
        });
        const curve = result.heldout.map((h) => h.success);
        finals.push(curve[curve.length - 1] ?? 0);
        last3.push(mean(curve.slice(-3)));
        steps += result.trainSteps;
        side += result.sideEffectRate;
        base0 += curve[0] ?? 0;
      }
      console.log(
        `${mode.padEnd(9)} dev final ${finals.map(pct).join(" ")} | mean ${pct(mean(finals))} last3 ${pct(mean(last3))} | base ${pct(base0 / seeds.length)} | steps ${Math.round(steps / seeds.length)} | side ${pct(side / seeds.length)}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

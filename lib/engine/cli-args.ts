import { RUN_MODES, type RunMode } from "../validations/run-config";

export type EvolveArgs = {
  mode: RunMode;
  rounds: number;
  seed: number;
  json: boolean;
  help: boolean;
};

export class CliUsageError extends Error {}

export const EVOLVE_USAGE = `usage: npm run evolve -- --mode coevolve|static|uniform --rounds N --seed S [--json]

Runs a whole co-evolution run in memory (no database) with default settings.
  --mode     coevolve (default), static or uniform
  --rounds   number of rounds, a non-negative integer (default 10)
  --seed     run seed, a non-negative integer (default 1)
  --json     print one JSON summary object as the last line`;

function parseCount(flag: string, raw: string | undefined): number {
  if (raw === undefined || raw.startsWith("--")) throw new CliUsageError(`${flag} needs a value`);
  if (!/^\d+$/.test(raw)) {
    throw new CliUsageError(`${flag} must be a non-negative integer (got "${raw}")`);
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new CliUsageError(`${flag} is too large (got "${raw}")`);
  return value;
}

/** Parses `npm run evolve` arguments; throws CliUsageError with a message meant for people. */
export function parseEvolveArgs(argv: readonly string[]): EvolveArgs {
  const args: EvolveArgs = { mode: "coevolve", rounds: 10, seed: 1, json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes("=") ? arg.split("=", 2) : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      i++;
      return argv[i];
    };
    switch (flag) {
      case "--mode": {
        const mode = value();
        if (mode === undefined) throw new CliUsageError("--mode needs a value");
        if (!(RUN_MODES as readonly string[]).includes(mode)) {
          throw new CliUsageError(`--mode must be one of ${RUN_MODES.join(", ")} (got "${mode}")`);
        }
        args.mode = mode as RunMode;
        break;
      }
      case "--rounds":
        args.rounds = parseCount("--rounds", value());
        if (args.rounds > 1000) throw new CliUsageError(`--rounds must be at most 1000`);
        break;
      case "--seed":
        args.seed = parseCount("--seed", value());
        break;
      case "--json":
        args.json = true;
        break;
      case "--help":
      case "-h":
        args.help = true;
        break;
      default:
        throw new CliUsageError(`unknown argument "${arg}"`);
    }
  }
  return args;
}

/**
 * Headless run: `npm run evolve -- --mode coevolve|static|uniform --rounds N --seed S [--json]`.
 * Prints per-round progress; with --json the LAST line is the RunResult JSON (a contract other
 * tools parse — see lib/engine/run.ts).
 */
import { CliUsageError, EVOLVE_USAGE, parseEvolveArgs } from "../lib/engine/cli-args";
import { runInMemory } from "../lib/engine/run";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

async function main() {
  const args = parseEvolveArgs(process.argv.slice(2));
  if (args.help) {
    console.log(EVOLVE_USAGE);
    return;
  }
  const { result, state } = await runInMemory(
    { mode: args.mode, rounds: args.rounds, seed: args.seed },
    {
      now: () => performance.now(),
      onRound: (r) => {
        const signals = Object.entries(r.signals)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        console.log(
          `round ${r.generation + 1}/${args.rounds}: train pass ${pct(r.trainPassRate)} ` +
            `(${r.train.informativeGroups}/${r.train.groups} groups informative) · held-out ${pct(r.heldout.success)} ` +
            `· side effects ${pct(r.heldout.sideEffectRate)} · new tasks ${r.poolNew}/${r.synthesized}` +
            (signals ? ` · signals: ${signals}` : "") +
            ` · ${Math.round(r.elapsedMs)} ms`,
        );
      },
    },
  );
  const first = result.heldout[0];
  const last = result.heldout[result.heldout.length - 1];
  console.log(
    `${result.mode} seed ${result.seed}: held-out ${pct(first?.success ?? 0)} → ${pct(last?.success ?? 0)} ` +
      `in ${result.rounds} rounds · ${result.trainRollouts} training rollouts, ${result.trainSteps} env steps ` +
      `· ${state.counters.validationSteps} validation steps · ${result.forgettingEvents} forgetting events ` +
      `· final side-effect rate ${pct(result.sideEffectRate)} · ${result.elapsedMs} ms`,
  );
  if (args.json) console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  if (error instanceof CliUsageError) {
    console.error(`error: ${error.message}\n\n${EVOLVE_USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

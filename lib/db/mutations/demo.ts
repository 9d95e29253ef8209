import { randomBytes } from "node:crypto";
import { parseRunConfig } from "@/lib/validations/run-config";
import { withTransaction } from "../transaction";
import { createRun, type MutationContext } from "./rounds";

/** Rounds the demo runs compute by themselves on first start. */
export const DEMO_ROUNDS = 6;

const DEMO_RUNS = [
  { name: "Demo · co-evolve", mode: "coevolve" },
  { name: "Demo · static baseline", mode: "static" },
  { name: "Demo · uniform control", mode: "uniform" },
] as const;

/**
 * On the first start of an empty database: a co-evolving run beside its static and uniform
 * baselines (same seed, base policy, seed pool and held-out set), computing their first rounds in
 * the background so a newcomer sees real charts and a real comparison. Never runs twice, even when
 * several processes start at once.
 */
export async function seedDemoIfEmpty(ctx: MutationContext): Promise<string[]> {
  const isEmpty = await withTransaction(ctx.pool, async (client) => {
    // Transaction-level lock: concurrent starters wait, then see the runs the first one made.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('coevolve-demo-seed'))`);
    const { rows } = await client.query<{ seeded: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM "Run") OR EXISTS (SELECT 1 FROM "AuditEvent" WHERE action = 'demo.seed') AS seeded`,
    );
    if (rows[0]!.seeded) return false;
    await client.query(`INSERT INTO "AuditEvent" (action, details) VALUES ('demo.seed', '{}')`);
    return true;
  });
  if (!isEmpty) return [];
  const compareGroup = `demo-${randomBytes(3).toString("hex")}`;
  const slugs: string[] = [];
  for (const demo of DEMO_RUNS) {
    const run = await createRun(ctx, {
      name: demo.name,
      config: parseRunConfig({ mode: demo.mode, seed: 1 }),
      compareGroup,
      autoRounds: DEMO_ROUNDS,
    });
    slugs.push(run.slug);
  }
  return slugs;
}

import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { diffSchemaSql } from "@/scripts/lib/prisma-diff";
import { describeSchema } from "@/tests/support/describe-schema";
import { createScratchDatabase, withClient, type ScratchDatabase } from "@/tests/support/db";

/** Objects the migrations add on purpose that Prisma's schema language cannot express. */
const INTENDED_EXTRAS = [
  `index CREATE UNIQUE INDEX "Generation_one_active_round_per_run" ON public."Generation" USING btree ("runId") WHERE (status = ANY (ARRAY['QUEUED'::"GenerationStatus", 'RUNNING'::"GenerationStatus", 'AWAITING_REVIEW'::"GenerationStatus"]))`,
];

const databases: ScratchDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

describe("migrations", () => {
  it("produce exactly the schema that prisma/schema.prisma describes", async () => {
    const migrated = await createScratchDatabase("drift_migrated");
    const fromSchema = await createScratchDatabase("drift_schema");
    databases.push(migrated, fromSchema);

    await migrate({ connectionString: migrated.url });
    const schemaSql = diffSchemaSql({
      toSchema: path.join(process.cwd(), "prisma", "schema.prisma"),
      databaseUrl: fromSchema.url,
    });
    expect(schemaSql).toContain('CREATE TABLE "Trajectory"');
    await withClient(fromSchema.url, (client) => client.query(schemaSql));

    const migratedSchema = await withClient(migrated.url, describeSchema);
    const expectedSchema = await withClient(fromSchema.url, describeSchema);

    expect(migratedSchema.filter((line) => !INTENDED_EXTRAS.includes(line))).toEqual(
      expectedSchema,
    );
    for (const extra of INTENDED_EXTRAS) expect(migratedSchema).toContain(extra);
  });
});

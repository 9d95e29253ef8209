import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * SQL that takes a database from one Prisma schema to another (or from empty), computed by the
 * Prisma 6 CLI's JavaScript engine. Prisma 7's `migrate diff` needs a schema-engine binary that
 * cannot be downloaded here; Prisma 6 with a driver adapter needs none, but does want a reachable
 * Postgres (`databaseUrl`) even though it changes nothing there.
 */
export type DiffSchemaOptions = {
  toSchema: string;
  /** Omit to diff from an empty database. */
  fromSchema?: string;
  databaseUrl: string;
};

export function diffSchemaSql(options: DiffSchemaOptions): string {
  // The CLI exits only once its idle pg pool closes (10 s by default): hence idleTimeoutMillis.
  // Inside node_modules so the config's imports resolve to the project's packages.
  const workDir = path.join(process.cwd(), "node_modules", ".cache", "coevolve-prisma-diff");
  fs.mkdirSync(workDir, { recursive: true });
  const toCopy = copyForPrisma6(options.toSchema, path.join(workDir, "to.prisma"));
  const fromCopy = options.fromSchema
    ? copyForPrisma6(options.fromSchema, path.join(workDir, "from.prisma"))
    : null;
  const configPath = path.join(workDir, "prisma6.config.ts");
  fs.writeFileSync(
    configPath,
    `import { PrismaPg } from "@prisma/adapter-pg";
export default {
  experimental: { adapter: true },
  engine: "js",
  schema: ${JSON.stringify(toCopy)},
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL, idleTimeoutMillis: 50 }),
};
`,
  );
  const cli = path.join(process.cwd(), "node_modules", "prisma6", "build", "index.js");
  return execFileSync(
    process.execPath,
    [
      cli,
      "migrate",
      "diff",
      "--config",
      configPath,
      ...(fromCopy ? ["--from-schema-datamodel", fromCopy] : ["--from-empty"]),
      "--to-schema-datamodel",
      toCopy,
      "--script",
    ],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        // Any existing file: tells Prisma not to download engines it will not use.
        PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
        PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        CHECKPOINT_DISABLE: "1",
      },
    },
  );
}

/** Prisma 6 wants a datasource url and knows only the `prisma-client-js` generator. */
function copyForPrisma6(schemaPath: string, target: string): string {
  const schema = fs
    .readFileSync(schemaPath, "utf8")
    .replace(/provider\s*=\s*"postgresql"/, `provider = "postgresql"\n  url = env("DATABASE_URL")`)
    .replace(/provider\s*=\s*"prisma-client"/, `provider = "prisma-client-js"`);
  fs.writeFileSync(target, schema);
  return target;
}

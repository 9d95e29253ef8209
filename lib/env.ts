import { z } from "zod";

/**
 * Environment, parsed once. Every variable is optional for the embedded default: `npm start`
 * fills DATABASE_URL in for the processes it starts when it runs the embedded Postgres.
 */
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  COEVOLVE_DATA_DIR: z.string().min(1).optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  return result.data;
}

export const env = parseEnv(process.env);

import { z } from "zod";

/** An empty value means unset, so `DATABASE_URL= npm start` asks for the embedded default. */
function unsetIfEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
}

/**
 * Environment, parsed once. Every variable is optional for the embedded default: `npm start`
 * fills DATABASE_URL in for the processes it starts when it runs the embedded Postgres.
 */
const envSchema = z.object({
  DATABASE_URL: unsetIfEmpty(
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
  ),
  PORT: unsetIfEmpty(z.coerce.number().int().min(1).max(65535)).transform((port) => port ?? 3000),
  COEVOLVE_DATA_DIR: unsetIfEmpty(z.string()),
  /** Where external trainers reach the web app (their callback URL); default http://localhost:PORT. */
  COEVOLVE_PUBLIC_URL: unsetIfEmpty(z.url({ protocol: /^https?$/ })),
  /** Encrypts saved API keys (32 bytes, hex or base64); default: a key file in the data dir. */
  COEVOLVE_SECRET_KEY: unsetIfEmpty(z.string()),
  EMBEDDED_PG_PORT: unsetIfEmpty(z.coerce.number().int().min(1).max(65535)),
  /** When set, /api/openai/v1 (the builtin policy as an OpenAI-compatible endpoint) requires it. */
  POLICY_SERVER_API_KEY: unsetIfEmpty(z.string()),
  /** When set, /api/environments/toolworld (ToolWorld over coevolve-env/1) requires it. */
  ENVIRONMENT_SERVER_API_KEY: unsetIfEmpty(z.string()),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  return result.data;
}

let parsed: Env | undefined;

/** The process environment, validated on first use (not at import, so importers can report it). */
export function getEnv(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}

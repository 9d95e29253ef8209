import { z } from "zod";

/** What a connection connects to; run configs name connections of the matching kind. */
export const CONNECTION_KINDS = ["openai", "http-environment", "trainer-webhook"] as const;
export type ConnectionKindName = (typeof CONNECTION_KINDS)[number];

/** Form fields arrive as strings: an empty one means "not given". */
const optionalText = (schema: z.ZodString) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );

export const ConnectionNameSchema = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,62}$/i,
    "Use 1–63 letters, digits, dots, dashes or underscores, starting with a letter or digit",
  );

export const ConnectionInputSchema = z.object({
  name: ConnectionNameSchema,
  kind: z.enum(CONNECTION_KINDS),
  baseUrl: z.url({ protocol: /^https?$/, error: "Enter an http:// or https:// URL" }),
  model: optionalText(z.string().trim().max(200)),
  /** Kept as typed (no trim): a key is opaque. */
  apiKey: optionalText(z.string().max(4000)),
  /** Set for a connection that belongs to one run; absent for the whole workspace. */
  runId: z.preprocess(
    (value) => (value === "" || value === undefined ? null : value),
    z.coerce.number().int().positive().nullable(),
  ),
});

export type ConnectionInput = z.output<typeof ConnectionInputSchema>;

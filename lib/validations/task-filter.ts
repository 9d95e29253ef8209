import { z } from "zod";

/**
 * The filter of a generation's task table. The same schema parses URL search params (so a copied
 * link reproduces the view), server-action input ("act on everything matching"), and the API.
 */
const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value.split(",").filter(Boolean)
        : value === undefined
          ? []
          : value,
    z.array(item),
  );

const optionalNumber = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce.number().min(0).max(1).optional(),
);

export const TaskFilterSchema = z
  .object({
    skill: csv(z.string().min(1).max(64)).default([]),
    review: csv(z.enum(["PENDING", "APPROVED", "REJECTED"])).default([]),
    signal: csv(z.enum(["FORGETTING", "BOUNDARY", "RARE", "UNIFORM", "NONE"])).default([]),
    origin: csv(z.enum(["SEED", "SYNTHESIZED", "IMPORTED"])).default([]),
    validation: csv(z.enum(["PENDING", "VALID", "INVALID"])).default([]),
    minDifficulty: optionalNumber,
    maxDifficulty: optionalNumber,
    q: z.string().trim().max(200).optional(),
  })
  .refine(
    (f) =>
      f.minDifficulty === undefined ||
      f.maxDifficulty === undefined ||
      f.minDifficulty <= f.maxDifficulty,
    { message: "minimum difficulty must not exceed the maximum", path: ["minDifficulty"] },
  );

export type TaskFilter = z.infer<typeof TaskFilterSchema>;

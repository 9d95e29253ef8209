"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import { loadSecretKey } from "@/lib/connections/secret-box";
import { createConnection, deleteConnection } from "@/lib/db/mutations/connections";
import { getPool } from "@/lib/db/pool";
import { ConnectionInputSchema } from "@/lib/validations/connection";

const PAGE = "/settings/connections";

/** Saves a connection; the answer names the key only by its hint. */
export const createConnectionAction = defineAction({
  name: "connection.create",
  schema: ConnectionInputSchema,
  scope: ({ runId }) => (runId === null ? {} : { runId }),
  handler: async (input) => {
    const saved = await createConnection(getPool(), input, loadSecretKey());
    revalidatePath(PAGE);
    return {
      message: `Saved "${saved.name}"${saved.apiKeyHint ? ` with key ${saved.apiKeyHint}` : ""}.`,
    };
  },
});

export const deleteConnectionAction = defineAction({
  name: "connection.delete",
  schema: z.object({ id: z.coerce.number().int().positive() }),
  handler: async ({ id }) => {
    await deleteConnection(getPool(), { id });
    revalidatePath(PAGE);
  },
});

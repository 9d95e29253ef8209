"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import {
  createShareLink,
  revokeShareLink,
  SHARE_EXPIRY_MAX_DAYS,
  SHARE_LABEL_MAX,
} from "@/lib/db/mutations/share-links";
import { sharePath } from "@/lib/share/token";

const CreateShareLinkSchema = z.object({
  runId: z.coerce.number().int().positive(),
  label: z.string().trim().max(SHARE_LABEL_MAX).optional(),
  /** "" from the form's "Never" option. */
  expiresInDays: z.preprocess(
    (value) => (value === "" || value === undefined || value === null ? undefined : Number(value)),
    z.number().int().min(1).max(SHARE_EXPIRY_MAX_DAYS).optional(),
  ),
});

/** Returns the link's path with the token: the only time the token leaves the server. */
export const createShareLinkAction = defineAction({
  name: "share.create",
  schema: CreateShareLinkSchema,
  scope: ({ runId }) => ({ runId }),
  handler: async ({ runId, label, expiresInDays }, { actor }) => {
    const { token, link } = await createShareLink({ runId, label, expiresInDays, actor });
    revalidatePath("/runs/[slug]", "page");
    return { path: sharePath(token), linkId: link.id };
  },
});

const RevokeShareLinkSchema = z.object({
  runId: z.coerce.number().int().positive(),
  linkId: z.coerce.number().int().positive(),
});

export const revokeShareLinkAction = defineAction({
  name: "share.revoke",
  schema: RevokeShareLinkSchema,
  scope: ({ runId }) => ({ runId }),
  handler: async ({ runId, linkId }, { actor }) => {
    await revokeShareLink({ runId, linkId, actor });
    revalidatePath("/runs/[slug]", "page");
    return { message: "Link revoked: it no longer opens the run." };
  },
});

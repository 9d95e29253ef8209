import "server-only";
import { cache } from "react";
import { getRunBySlug } from "@/lib/db/queries/runs";

/** The layout, generateMetadata and the pages below share one lookup per request. */
export const loadRun = cache((slug: string) => getRunBySlug({ slug }));

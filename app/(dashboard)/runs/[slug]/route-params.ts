import { cache } from "react";
import { getRunBySlug } from "@/lib/db/queries/runs";

/** generateMetadata and the page share one run lookup per request. */
export const loadRun = cache((slug: string) => getRunBySlug({ slug }));

import "server-only";
import { listShareLinks } from "@/lib/db/queries/share-links";
import type { RunDetail } from "@/lib/db/queries/runs";
import { ShareDialog } from "./share-dialog";

/**
 * The run header's **Share** button: it loads the run's links here, on the server, so the dialog
 * opens with them; creating or revoking revalidates the run page, which refreshes this list.
 */
export async function ShareButton({ run }: { run: Pick<RunDetail, "id" | "name"> }) {
  const links = await listShareLinks({ runId: run.id });
  return <ShareDialog runId={run.id} runName={run.name} links={links} />;
}

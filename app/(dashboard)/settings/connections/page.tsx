import type { Metadata } from "next";
import { connection } from "next/server";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableHead, Td, Th, Tr } from "@/components/ui/table";
import { listConnections } from "@/lib/db/queries/connections";
import { listRuns } from "@/lib/db/queries/runs";
import { ConnectionForm } from "./connection-form";
import { DeleteConnectionButton } from "./delete-connection-button";

export const metadata: Metadata = { title: "Connections" };

/** Endpoints and API keys. Keys go in once and only their hint ever comes back out. */
export default async function ConnectionsPage() {
  await connection();
  const [connections, runs] = await Promise.all([listConnections(), listRuns({ limit: 200 })]);
  return (
    <section aria-labelledby="connections-heading" className="space-y-6">
      <div className="space-y-1">
        <h1 id="connections-heading" className="text-2xl font-semibold tracking-tight">
          Connections
        </h1>
        <p className="text-sm text-muted">
          Endpoints and API keys that runs refer to by name, for the whole workspace or one run (a
          run&apos;s own connection wins). Keys are encrypted at rest; only the worker decrypts
          them, right before it calls the endpoint.
        </p>
      </div>
      <ConnectionForm runs={runs.map((run) => ({ id: run.id, name: run.name }))} />
      {connections.length === 0 ? (
        <EmptyState title="No connections yet">
          Add an OpenAI-compatible endpoint, an HTTP environment or a trainer webhook above.
        </EmptyState>
      ) : (
        <Table caption="Saved connections">
          <TableHead>
            <Th>Name</Th>
            <Th>Kind</Th>
            <Th>Base URL</Th>
            <Th>Model</Th>
            <Th>API key</Th>
            <Th>Scope</Th>
            <Th align="right">
              <span className="sr-only">Actions</span>
            </Th>
          </TableHead>
          <tbody>
            {connections.map((c) => (
              <Tr key={c.id}>
                <Td className="font-medium">{c.name}</Td>
                <Td>{c.kind}</Td>
                <Td className="break-all">{c.baseUrl}</Td>
                <Td>{c.model ?? "—"}</Td>
                <Td className="tabular-nums">{c.hasApiKey ? c.apiKeyHint : "none"}</Td>
                <Td>{c.runName ? `Run: ${c.runName}` : "Workspace"}</Td>
                <Td align="right">
                  <DeleteConnectionButton id={c.id} name={c.name} />
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

import { createToolWorld } from "@/lib/engine/environments/toolworld";
import {
  createEnvironmentHandler,
  type EnvironmentHandler,
} from "@/lib/engine/environments/http/server";
import { getEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

/**
 * The builtin ToolWorld over the coevolve-env/1 protocol (docs/http-environment-protocol.md):
 * point `connectHttpEnvironment({ baseUrl: "<app>/api/environments/toolworld" })` here. Episodes
 * live in this server process's memory, so one instance serves a session from open to close.
 * Requires `Authorization: Bearer $ENVIRONMENT_SERVER_API_KEY` when that variable is set.
 */
let shared: EnvironmentHandler | null = null;

function handler(request: Request): Promise<Response> {
  shared ??= createEnvironmentHandler(createToolWorld(), {
    basePath: "/api/environments/toolworld",
    apiKey: getEnv().ENVIRONMENT_SERVER_API_KEY,
    onError: (error) => console.error("toolworld environment route failed", error),
  });
  return shared(request);
}

// Every verb goes to the handler so a wrong one gets the protocol's 405 envelope, not Next's.
export async function GET(request: Request) {
  return handler(request);
}
export async function POST(request: Request) {
  return handler(request);
}
export async function DELETE(request: Request) {
  return handler(request);
}
export async function PUT(request: Request) {
  return handler(request);
}
export async function PATCH(request: Request) {
  return handler(request);
}

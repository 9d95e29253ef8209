import { getEnv } from "@/lib/env";
import { createRunPolicyHandler } from "@/lib/policy-endpoint";

export const dynamic = "force-dynamic";

let handler: ((request: Request) => Promise<Response>) | null = null;

/**
 * OpenAI-compatible `GET /api/openai/v1/models` and `POST /api/openai/v1/chat/completions`: a
 * run's checkpoints played by the builtin policy (see lib/policy-endpoint.ts). Requires
 * `Authorization: Bearer $POLICY_SERVER_API_KEY` when that variable is set.
 */
function serve(request: Request): Promise<Response> {
  handler ??= createRunPolicyHandler({ apiKey: getEnv().POLICY_SERVER_API_KEY });
  return handler(request);
}

export const GET = serve;
export const POST = serve;

import { serveFetchHandler, type ServedHandler } from "../agents/openai/node-http";

/** What the fault server does with one chat-completions request. */
export type Fault =
  /** Never answers (until the server closes). */
  | { kind: "stall" }
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "malformed-json" }
  /** A valid reply calling `name` with raw `arguments` text, after `delayMs`. */
  | { kind: "call"; name: string; arguments: string; delayMs?: number }
  /** A valid reply with this assistant message and optional token logprobs. */
  | { kind: "reply"; message: Record<string, unknown>; logprobs?: unknown[] };

export type FaultChatServer = ServedHandler & {
  /** OpenAI base URL (…/v1). */
  baseUrl: string;
  requests: number;
  maxInFlight: number;
  /** Authorization headers received, to prove the key is sent. */
  authorizations: string[];
  /** Parsed request bodies, in arrival order. */
  bodies: unknown[];
};

/**
 * A chat-completions endpoint that misbehaves on purpose, for the OpenAI agent's fault tests.
 * `plan(n)` picks the fault for the n-th request (0-based). Error bodies echo the request's
 * Authorization header, so tests can prove the agent scrubs the key from what it reports.
 */
export async function startFaultChatServer(plan: (n: number) => Fault): Promise<FaultChatServer> {
  let inFlight = 0;
  const stalls = new Set<() => void>();
  const state = {
    requests: 0,
    maxInFlight: 0,
    authorizations: [] as string[],
    bodies: [] as unknown[],
  };
  const served = await serveFetchHandler(async (request) => {
    const n = state.requests++;
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    state.authorizations.push(request.headers.get("authorization") ?? "");
    try {
      const text = await request.text();
      state.bodies.push(text ? (JSON.parse(text) as unknown) : null);
      const fault = plan(n);
      switch (fault.kind) {
        case "stall":
          await new Promise<void>((resolve) => stalls.add(resolve));
          return new Response("too late", { status: 504 });
        case "status":
          return new Response(
            fault.body ??
              JSON.stringify({
                error: {
                  message: `boom (you sent ${request.headers.get("authorization") ?? "nothing"})`,
                },
              }),
            {
              status: fault.status,
              headers: { "content-type": "application/json", ...fault.headers },
            },
          );
        case "malformed-json":
          return new Response('{"choices": [{"message": ', {
            headers: { "content-type": "application/json" },
          });
        case "reply":
          return Response.json({
            id: `fault-${n}`,
            object: "chat.completion",
            created: 0,
            model: "fault",
            choices: [
              {
                index: 0,
                message: { role: "assistant", ...fault.message },
                finish_reason: "stop",
                logprobs: fault.logprobs ? { content: fault.logprobs } : null,
              },
            ],
            usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
          });
        case "call":
          if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
          return Response.json({
            id: `fault-${n}`,
            object: "chat.completion",
            created: 0,
            model: "fault",
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: null,
                  tool_calls: [
                    {
                      id: `call_${n}`,
                      type: "function",
                      function: { name: fault.name, arguments: fault.arguments },
                    },
                  ],
                },
                finish_reason: "tool_calls",
                logprobs: null,
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          });
      }
    } finally {
      inFlight -= 1;
    }
  });
  // Getters, not copies: the counts keep moving while a test runs.
  const server: FaultChatServer = {
    url: served.url,
    port: served.port,
    server: served.server,
    baseUrl: `${served.url}/v1`,
    get requests() {
      return state.requests;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get authorizations() {
      return state.authorizations;
    },
    get bodies() {
      return state.bodies;
    },
    close: async () => {
      for (const release of stalls) release();
      await served.close();
    },
  };
  return server;
}

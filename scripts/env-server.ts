/**
 * Serves the builtin ToolWorld over the coevolve-env/1 protocol on plain node:http:
 * `npm run env:serve -- --port 8765 [--host 127.0.0.1] [--max-sessions 256] [--idle-timeout-ms 600000]`.
 * With ENVIRONMENT_SERVER_API_KEY set, requests must carry it as a Bearer token.
 * See docs/http-environment-protocol.md.
 */
import { createToolWorld } from "../lib/engine/environments/toolworld";
import { createEnvironmentHandler } from "../lib/engine/environments/http/server";
import { serveFetchHandler } from "../lib/engine/agents/openai/node-http";

const USAGE =
  "usage: npm run env:serve -- [--port 8765] [--host 127.0.0.1] [--max-sessions 256] [--idle-timeout-ms 600000]";

function parseArgs(argv: string[]) {
  const out = { port: 8765, host: "127.0.0.1", maxSessions: 256, idleTimeoutMs: 600_000 };
  const numeric = {
    "--port": "port",
    "--max-sessions": "maxSessions",
    "--idle-timeout-ms": "idleTimeoutMs",
  } as const;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") {
      console.log(USAGE);
      process.exit(0);
    }
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === "--host") out.host = value;
    else if (flag in numeric) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`${flag} must be a whole number, got "${value}"`);
      out[numeric[flag as keyof typeof numeric]] = n;
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
    i++;
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const handler = createEnvironmentHandler(createToolWorld(), {
    maxSessions: args.maxSessions,
    idleTimeoutMs: args.idleTimeoutMs,
    onError: (error) => console.error("env-server: internal error", error),
    // Like vLLM's --api-key: clients then send `Authorization: Bearer <key>`.
    apiKey: process.env.ENVIRONMENT_SERVER_API_KEY || undefined,
  });
  const served = await serveFetchHandler(handler, { port: args.port, host: args.host });
  console.log(
    `ToolWorld (coevolve-env/1) listening on ${served.url} — try GET ${served.url}/describe`,
  );
  const stop = () => {
    void handler
      .closeAll()
      .then(() => served.close())
      .then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

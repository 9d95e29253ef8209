/**
 * Mounts a web-standard `(Request) => Promise<Response>` handler on a plain node:http server, so a
 * handler written once also runs outside Next (the `env:serve` script, tests on ephemeral ports).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

export type NodeServer = {
  server: Server;
  /** "http://127.0.0.1:PORT" — the port is the real one when 0 (ephemeral) was asked for. */
  url: string;
  close(): Promise<void>;
};

async function toRequest(message: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = message.method ?? "GET";
  let body: ArrayBuffer | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of message) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  return new Request(new URL(message.url ?? "/", origin), { method, headers, body });
}

async function writeResponse(response: Response, out: ServerResponse): Promise<void> {
  out.statusCode = response.status;
  response.headers.forEach((value, name) => out.setHeader(name, value));
  out.end(Buffer.from(await response.arrayBuffer()));
}

export function serveFetchHandler(
  handler: FetchHandler,
  options: { port?: number; host?: string } = {},
): Promise<NodeServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((message, out) => {
    const origin = `http://${message.headers.host ?? host}`;
    toRequest(message, origin)
      .then(handler)
      .then((response) => writeResponse(response, out))
      .catch(() => {
        if (!out.headersSent) out.statusCode = 500;
        out.end();
      });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.closeAllConnections();
            server.close((error) => (error ? fail(error) : done()));
          }),
      });
    });
  });
}

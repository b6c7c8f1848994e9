/**
 * A pass-through OAuth token endpoint in front of the emulator's `POST /oauth/token` that remembers
 * every access token it hands out. The provider runs in the engine's plugin process, out of the
 * test's reach; through this proxy a test learns its tokens, to expire them mid-run or to look
 * for them in logs and state.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenProxy {
  /** The URL to configure as `webhooks:tokenUrl`. */
  readonly tokenUrl: string;
  /** Access tokens issued so far, oldest first. */
  readonly issued: readonly string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A fresh Builder token from the emulator's own OAuth endpoint, for tests that must not depend on the fixed one. */
export async function issueToken(emulatorUrl: string): Promise<string> {
  const response = await fetch(`${emulatorUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&client_id=dev-client&client_secret=dev-secret",
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Starts the proxy on a free loopback port, forwarding to `${emulatorUrl}/oauth/token`. */
export async function startTokenProxy(emulatorUrl: string): Promise<TokenProxy> {
  const issued: string[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      try {
        const headers: Record<string, string> = {};
        for (const name of ["content-type", "authorization", "accept"]) {
          const value = request.headers[name];
          if (typeof value === "string") headers[name] = value;
        }
        const upstream = await fetch(`${emulatorUrl}/oauth/token`, {
          method: request.method ?? "POST",
          headers,
          body: await readBody(request),
        });
        const text = await upstream.text();
        if (upstream.ok) {
          const token = (JSON.parse(text) as { access_token?: unknown }).access_token;
          if (typeof token === "string") issued.push(token);
        }
        response
          .writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" })
          .end(text);
      } catch (error) {
        response.writeHead(502, { "content-type": "text/plain" }).end(`token proxy: ${(error as Error).message}`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
    issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

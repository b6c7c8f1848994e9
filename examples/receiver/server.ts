/**
 * A tiny webhook receiver: accepts a message only when its headers prove it came from the
 * service for our subscription (`assertSignature`), and answers a bare 401 otherwise: a forger
 * learns nothing about which check failed. The reason is logged here, server-side only (it
 * names headers and checks, never a signature or header value).
 *
 * Run it directly (values from the environment, see README.md):
 *   RECEIVER_SIGNATURES="$(pulumi stack output signature --show-secrets)" npx tsx examples/receiver/server.ts
 * or start it from code with `startReceiver`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  assertSignature,
  createVerifier,
  SignatureVerificationError,
  type VerifySignatureOptions,
} from "pulumi-webhook-subscriptions";

/** Options of `startReceiver`. */
export interface ReceiverOptions {
  /** TCP port; 0 picks a free one (read it back from `url`). */
  readonly port: number;
  /** Address to listen on. @default "127.0.0.1" */
  readonly host?: string;
  /** The subscription's Signature, or several while an old and a new subscription overlap. */
  readonly signatures: string | readonly string[];
  /** The word in `x-<product>-signature`. @default "service" */
  readonly product?: string;
  /** The subscription's custom header name and value, checked when given. @default undefined */
  readonly customHeader?: VerifySignatureOptions["customHeader"];
  /** Called with each accepted message; act on it here. @default undefined */
  readonly onMessage?: (message: ReceivedMessage) => void;
  /** Where rejections are reported (their messages never contain secrets). @default console.warn */
  readonly log?: (line: string) => void;
}

/** A message that passed verification. */
export interface ReceivedMessage {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body as sent; the spec does not fix its shape. */
  readonly body: unknown;
}

/** A running receiver. */
export interface RunningReceiver {
  /** Base URL, e.g. `http://127.0.0.1:3000` (no trailing slash). */
  readonly url: string;
  /** Messages accepted so far, oldest first. */
  readonly received: readonly ReceivedMessage[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Messages are small; a bigger body is not one of ours. */
const MAX_BODY_BYTES = 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error(`body larger than ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function answer(response: ServerResponse, status: number, text?: string): void {
  response.statusCode = status;
  if (text === undefined) return void response.end();
  response.setHeader("content-type", "text/plain; charset=utf-8");
  response.end(`${text}\n`);
}

/** Starts a receiver that verifies every message before accepting it. */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const verifyOptions: VerifySignatureOptions = { product: options.product, customHeader: options.customHeader };
  const log = options.log ?? ((line: string) => console.warn(line));
  const received: ReceivedMessage[] = [];
  // Throws SignatureOptionsError now for unusable options (an unset signature variable), so the
  // receiver fails at start instead of on its first message.
  createVerifier(options.signatures, verifyOptions);

  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== "POST") return answer(response, 405, "only POST");
      try {
        // Verify before reading the body: an unauthenticated sender gets nothing from us.
        assertSignature(request.headers, options.signatures, verifyOptions);
      } catch (error) {
        if (!(error instanceof SignatureVerificationError)) throw error;
        log(`rejected ${request.method} ${request.url ?? ""}: ${error.code}: ${error.message}`);
        // A bare 401 to every refusal: which check failed stays in our log.
        return answer(response, 401);
      }
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request));
      } catch {
        return answer(response, 400, "body must be JSON");
      }
      const message: ReceivedMessage = { path: request.url ?? "", headers: request.headers, body };
      received.push(message);
      answer(response, 204);
      options.onMessage?.(message);
    })().catch((error: unknown) => {
      log(`receiver error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answer(response, 500);
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Settings from the environment, for running this file directly. */
function optionsFromEnv(env: NodeJS.ProcessEnv): ReceiverOptions {
  const signatures = (env.RECEIVER_SIGNATURES ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (signatures.length === 0) {
    throw new Error(
      'RECEIVER_SIGNATURES is not set: run with RECEIVER_SIGNATURES="$(pulumi stack output signature --show-secrets)" (comma-separate several during a replacement)',
    );
  }
  const headerName = env.RECEIVER_CUSTOM_HEADER;
  const port = Number(env.RECEIVER_PORT ?? "3000");
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`RECEIVER_PORT must be a port number, got ${JSON.stringify(env.RECEIVER_PORT)}`);
  return {
    port,
    host: env.RECEIVER_HOST ?? "127.0.0.1",
    signatures,
    product: env.RECEIVER_PRODUCT || undefined,
    customHeader: headerName ? { name: headerName, value: env.RECEIVER_CUSTOM_HEADER_VALUE ?? "" } : undefined,
  };
}

async function main(): Promise<void> {
  const receiver = await startReceiver({
    ...optionsFromEnv(process.env),
    onMessage: (message) => console.log(`accepted ${message.path}: ${JSON.stringify(message.body)}`),
  });
  console.log(`webhook receiver listening on ${receiver.url}`);
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

/**
 * One executable, three front doors: the plugin's entry, as the run built it, speaks go-plugin's
 * tfplugin6 when started with Terraform's magic cookie (handshake line, AutoMTLS that requires the
 * client's certificate, exit on Shutdown) and Pulumi's protocol without it (its port alone).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { serverCertificate, type ServerCertificate } from "../../provider/terraform/goPlugin/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/terraform/goPlugin/handshake";
import { serviceDefinition } from "../../provider/terraform/protocol/services";
import { cleanEnv } from "../support/commands";
import { sharedPluginBuild } from "../support/pluginBuild";

let entry: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  entry = join((await sharedPluginBuild()).pluginDir, "index.js");
}, 900_000);

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill();
});

/** Starts the entry with `env` and resolves with its first stdout line. */
async function start(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [entry], {
    env: { ...cleanEnv(), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return { child, line };
}

const Provider = grpc.makeGenericClientConstructor(serviceDefinition("tfplugin6.Provider"), "Provider");
const Controller = grpc.makeGenericClientConstructor(serviceDefinition("plugin.GRPCController"), "Controller");
type Unary = (
  request: object,
  callback: (err: grpc.ServiceError | null, response: Record<string, unknown>) => void,
) => void;
const call = (client: grpc.Client, method: string) =>
  new Promise<Record<string, unknown>>((resolve, reject) =>
    (client as unknown as Record<string, Unary>)[method]!({}, (err, response) =>
      err ? reject(err) : resolve(response),
    ),
  );

const pem = (der: Buffer) => new X509Certificate(der).toString();

describe("the plugin executable's entry", () => {
  let client: ServerCertificate;
  beforeAll(async () => {
    client = await serverCertificate();
  });

  it("serves tfplugin6 over mutual TLS when started with the magic cookie, and exits on Shutdown", async () => {
    const { child, line } = await start({
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: "5,6",
      PLUGIN_CLIENT_CERT: client.certificatePem,
    });
    const match = /^1\|6\|tcp\|(127\.0\.0\.1:\d+)\|grpc\|([A-Za-z0-9+/]+)$/.exec(line);
    expect(match, line).not.toBeNull();
    const [, address, certificate] = match!;
    const server = pem(Buffer.from(certificate!, "base64"));
    const options = { "grpc.ssl_target_name_override": "localhost" };

    // Without the client's certificate, the server does not answer.
    const stranger = new Provider(address!, grpc.credentials.createSsl(Buffer.from(server)), options);
    await expect(call(stranger, "GetMetadata")).rejects.toThrow();
    stranger.close();

    const credentials = grpc.credentials.createSsl(
      Buffer.from(server),
      Buffer.from(client.privateKeyPem),
      Buffer.from(client.certificatePem),
    );
    const provider = new Provider(address!, credentials, options);
    const metadata = await call(provider, "GetMetadata");
    expect(metadata.resources).toEqual([{ type_name: "webhooks_subscription" }]);
    provider.close();

    const exited = once(child, "exit");
    const controller = new Controller(address!, credentials, options);
    const asked = Date.now();
    await call(controller, "Shutdown");
    await exited;
    // go-plugin's client kills a plugin that is still there after 2 s.
    expect(Date.now() - asked).toBeLessThan(1_500);
    controller.close();
  }, 60_000);

  it("refuses a client that does not speak protocol 6, saying which it needs", async () => {
    const child = spawn(process.execPath, [entry], {
      env: { ...cleanEnv(), [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(1);
    expect(stderr).toContain("This provider speaks plugin protocol 6, and the client offered 5");
  }, 60_000);

  it("serves Pulumi's protocol without the cookie: its port alone on stdout", async () => {
    const { line } = await start({});
    expect(line).toMatch(/^\d+$/);
  }, 60_000);
});

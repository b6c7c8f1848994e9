/**
 * go-plugin's AutoMTLS as serveGoPlugin (provider/terraform/goPlugin/serve.ts) serves it: a client
 * holding the certificate of the handshake is answered, any other client is not, and no TLS
 * context of the server trusts a certificate store (Node.js builds its whole bundled root store
 * for a context given a CA, which a launch would pay for on every start).
 */
import { X509Certificate } from "node:crypto";
import tls from "node:tls";
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serverCertificate } from "../../provider/terraform/goPlugin/certificate";
import { serveGoPlugin, type RunningGoPlugin } from "../../provider/terraform/goPlugin/serve";
import { serviceDefinition } from "../../provider/terraform/protocol/services";

const Provider = grpc.makeGenericClientConstructor(serviceDefinition("tfplugin6.Provider"), "Provider");
const OPTIONS = { "grpc.ssl_target_name_override": "localhost" };

/** GetMetadata through `client`: its resources' type names. */
function getMetadata(client: grpc.Client): Promise<unknown> {
  return new Promise((resolve, reject) =>
    (client as unknown as Record<string, grpc.requestCallback<unknown> & ((...args: unknown[]) => void)>).GetMetadata!(
      {},
      { deadline: Date.now() + 5_000 },
      (err: grpc.ServiceError | null, response: unknown) => (err ? reject(err) : resolve(response)),
    ),
  );
}

describe("serveGoPlugin with AutoMTLS", () => {
  let running: RunningGoPlugin | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await running?.close();
    running = undefined;
  });

  it("answers the client holding the handshake's certificate, and no other", async () => {
    const [client, stranger] = [await serverCertificate(), await serverCertificate()];
    const contexts = vi.spyOn(tls, "createSecureContext");
    running = await serveGoPlugin(
      { ports: { min: 0, max: 0 }, clientCertificate: client.certificatePem },
      {
        definition: serviceDefinition("tfplugin6.Provider"),
        implementation: {
          GetMetadata: (_call: unknown, callback: grpc.sendUnaryData<unknown>) =>
            callback(null, { resources: [{ type_name: "webhooks_subscription" }] }),
        },
      },
      serviceDefinition,
      () => undefined,
    );
    // No context of the server's trusts a store: `ca` is empty, never a certificate or the default roots.
    expect(contexts).toHaveBeenCalled();
    for (const [options] of contexts.mock.calls) expect(options?.ca).toEqual([]);
    contexts.mockRestore();

    const address = running.line.split("|")[3]!;
    // The handshake line has the DER in base64 without padding, as go-plugin writes it.
    const server = Buffer.from(new X509Certificate(Buffer.from(running.line.split("|")[5]!, "base64")).toString());
    const as = (identity?: { certificatePem: string; privateKeyPem: string }) =>
      new Provider(
        address,
        identity
          ? grpc.credentials.createSsl(
              server,
              Buffer.from(identity.privateKeyPem),
              Buffer.from(identity.certificatePem),
            )
          : grpc.credentials.createSsl(server),
        OPTIONS,
      );
    for (const other of [as(), as(stranger)]) {
      await expect(getMetadata(other)).rejects.toThrow();
      other.close();
    }
    const known = as(client);
    await expect(getMetadata(known)).resolves.toMatchObject({ resources: [{ type_name: "webhooks_subscription" }] });
    known.close();
  });
});

/**
 * A go-plugin gRPC server: the application's service beside go-plugin's own (services.ts), on
 * 127.0.0.1 at a port in the client's range, with AutoMTLS when the client sent its certificate:
 * the server requires a client certificate, and serves a connection only when it is exactly that
 * one, with its own certificate (certificate.ts) announced in the handshake line. TLS 1.2 at
 * least, HTTP/2 over ALPN as gRPC clients require.
 *
 * With AutoMTLS, TLS ends on a `tls.Server` of our own, which hands each connection it accepts to
 * grpc-js (`createConnectionInjector`): grpc-js's own TLS (`ServerCredentials.createSsl`) would give
 * the client's certificate to Node.js as a CA, and Node.js builds its whole bundled root store for
 * any context that adds one (about 140 certificates parsed: 15-30 ms of a launch's CPU), though
 * the handshake trusts that one certificate alone. Ours trusts no store (`ca: []`) and compares the
 * certificate the client presented, whose key TLS has proved it holds, with the handshake's.
 */
import { X509Certificate } from "node:crypto";
import { createServer as createTlsServer, type Server as TlsServer, type TLSSocket } from "node:tls";
import * as grpc from "@grpc/grpc-js";
import { serverCertificate, type ServerCertificate } from "./certificate";
import { isFreePort } from "./freePort";
import { handshakeLine, type HandshakeRequest } from "./handshake";
import { brokerService, controllerService, stdioService } from "./services";

/** How long Shutdown's answer may take to leave before the process ends anyway (go-plugin waits 2 s, then kills). */
const SHUTDOWN_GRACE_MS = 250;

/** A service to serve: its definition and implementation. */
export interface ServedService {
  readonly definition: grpc.ServiceDefinition;
  readonly implementation: grpc.UntypedServiceImplementation;
}

/** A running server and its handshake line. */
export interface RunningGoPlugin {
  readonly line: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `application` and go-plugin's services.
 * @param definitions go-plugin's service definitions, by name (`plugin.GRPCBroker`, …).
 * @param onShutdown what `GRPCController/Shutdown` does once answered and the server stopped (the entry exits the process).
 */
export async function serveGoPlugin(
  request: HandshakeRequest,
  application: ServedService,
  definitions: (name: string) => grpc.ServiceDefinition,
  onShutdown: () => void,
): Promise<RunningGoPlugin> {
  // No channelz: nothing here reads it, and its per-call bookkeeping was ~3% of a 500-resource apply.
  const server = new grpc.Server({ "grpc.max_receive_message_length": 256 * 1024 * 1024, "grpc.enable_channelz": 0 });
  server.addService(application.definition, application.implementation);
  server.addService(definitions("plugin.GRPCBroker"), brokerService());
  server.addService(definitions("plugin.GRPCStdio"), stdioService());
  // The answer to Shutdown must reach the client before the process ends: the server is stopped
  // gracefully first, within a bound, since the client's broker and stdio streams may stay open.
  const shutdown = () => {
    server.tryShutdown(onShutdown);
    setTimeout(onShutdown, SHUTDOWN_GRACE_MS);
  };
  server.addService(definitions("plugin.GRPCController"), controllerService(shutdown));

  if (!request.clientCertificate) {
    const insecure = grpc.ServerCredentials.createInsecure();
    const port = await bindInRange(
      (port) =>
        new Promise<number>((resolve, reject) =>
          server.bindAsync(`127.0.0.1:${port}`, insecure, (err, bound) => (err ? reject(err) : resolve(bound))),
        ),
      request.ports,
      true,
    );
    return {
      line: handshakeLine(`127.0.0.1:${port}`),
      port,
      close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    };
  }
  const own = await serverCertificate();
  const listener = mutualTlsListener(server, own, new X509Certificate(request.clientCertificate));
  const port = await bindInRange(
    (port) =>
      new Promise<number>((resolve, reject) => {
        // Each outcome removes the other's handler: a `listen` callback would stay registered
        // after a failed bind, and a dozen taken ports would print MaxListenersExceededWarning.
        const listening = () => {
          listener.off("error", failed);
          resolve((listener.address() as { port: number }).port);
        };
        const failed = (err: Error) => {
          listener.off("listening", listening);
          reject(err);
        };
        listener.once("error", failed).once("listening", listening);
        listener.listen(port, "127.0.0.1");
      }),
    request.ports,
    false,
  );
  return {
    line: handshakeLine(`127.0.0.1:${port}`, own.der),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close();
        server.tryShutdown(() => resolve());
      }),
  };
}

/**
 * AutoMTLS's listener (see the module comment): a TLS server with our certificate that asks for
 * the client's, trusting no store, and hands grpc-js the connections whose certificate is `client`
 * byte for byte; it closes the others, as a TLS server trusting only `client` would refuse them.
 */
function mutualTlsListener(server: grpc.Server, own: ServerCertificate, client: X509Certificate): TlsServer {
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const listener = createTlsServer({
    ca: [],
    cert: own.certificatePem,
    key: own.privateKeyPem,
    requestCert: true,
    // Checked here instead, against exactly the client's certificate (the store is empty).
    rejectUnauthorized: false,
    ALPNProtocols: ["h2"],
    minVersion: "TLSv1.2",
  });
  listener.on("secureConnection", (socket: TLSSocket) => {
    // A connection's errors end it; they must not end the process (grpc-js does the same for its own).
    socket.on("error", () => undefined);
    if (socket.getPeerX509Certificate()?.raw.equals(client.raw)) injector.injectConnection(socket);
    else socket.destroy();
  });
  return listener;
}

/**
 * Binds to the first free port of the range (any port for 0..0), as go-plugin's listener does.
 * With `probe`, for grpc-js's own bind, which reports each failure on stderr, taken ports are
 * passed over after a probe (freePort.ts); AutoMTLS's listener fails quietly, so it just tries.
 */
async function bindInRange(
  bind: (port: number) => Promise<number>,
  ports: HandshakeRequest["ports"],
  probe: boolean,
): Promise<number> {
  if (ports.min === 0 && ports.max === 0) return bind(0);
  let last: unknown;
  for (let port = ports.min; port <= (ports.max || ports.min); port++) {
    if (probe && !(await isFreePort(port))) {
      last = `port ${port} is taken`;
      continue;
    }
    try {
      return await bind(port);
    } catch (err) {
      last = err;
    }
  }
  throw new Error(
    `no free port between PLUGIN_MIN_PORT ${ports.min} and PLUGIN_MAX_PORT ${ports.max}: ${String(last)}`,
  );
}

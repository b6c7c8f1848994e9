/**
 * A go-plugin gRPC server: the application's service beside go-plugin's own (services.ts), on
 * 127.0.0.1 at a port in the client's range, with AutoMTLS when the client sent its certificate:
 * the server requires a client certificate and verifies it against exactly that one, with its own
 * certificate (certificate.ts) announced in the handshake line. TLS 1.2 at least, HTTP/2 over ALPN
 * as gRPC clients require (grpc-js's defaults).
 */
import * as grpc from "@grpc/grpc-js";
import { serverCertificate } from "./certificate";
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

  let credentials = grpc.ServerCredentials.createInsecure();
  let der: Buffer | undefined;
  if (request.clientCertificate) {
    const own = await serverCertificate();
    der = own.der;
    credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(request.clientCertificate),
      [{ private_key: Buffer.from(own.privateKeyPem), cert_chain: Buffer.from(own.certificatePem) }],
      true,
    );
  }
  const port = await bindInRange(server, credentials, request.ports);
  return {
    line: handshakeLine(`127.0.0.1:${port}`, der),
    port,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * Binds to the first free port of the range (any port for 0..0), as go-plugin's listener does;
 * taken ports are passed over after a probe (freePort.ts), so grpc-js has no failed bind to report.
 */
async function bindInRange(
  server: grpc.Server,
  credentials: grpc.ServerCredentials,
  ports: HandshakeRequest["ports"],
): Promise<number> {
  const bind = (port: number) =>
    new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, credentials, (err, bound) => (err ? reject(err) : resolve(bound))),
    );
  if (ports.min === 0 && ports.max === 0) return bind(0);
  let last: unknown;
  for (let port = ports.min; port <= (ports.max || ports.min); port++) {
    if (!(await isFreePort(port))) {
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

/**
 * The services go-plugin's client calls on every plugin besides the application's own
 * (hashicorp/go-plugin grpc_server.go, grpc_broker.go, grpc_stdio.go, grpc_controller.go):
 *
 * - `plugin.GRPCBroker/StartStream`: the broker's stream, for plugins that open more connections.
 *   This provider opens none: the stream is held open until the client ends it;
 * - `plugin.GRPCStdio/StreamStdio`: the plugin's stdout and stderr as messages. Ours go to the
 *   process's own stderr, which the client reads as well, so the stream carries nothing;
 * - `plugin.GRPCController/Shutdown`: the end. The process exits once it has answered (serve.ts),
 *   or the client would wait 2 s before killing it.
 */
import type * as grpc from "@grpc/grpc-js";

/** The broker: an idle stream that ends when the client ends it. */
export function brokerService(): grpc.UntypedServiceImplementation {
  return {
    StartStream: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      call.on("data", () => undefined);
      call.on("end", () => call.end());
      call.on("error", () => undefined);
    },
  };
}

/** Stdio: an open stream with nothing on it. */
export function stdioService(): grpc.UntypedServiceImplementation {
  return {
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      call.on("cancelled", () => call.end());
      call.on("error", () => undefined);
    },
  };
}

/** The controller: `Shutdown` answers, then runs `shutdown`. */
export function controllerService(shutdown: () => void): grpc.UntypedServiceImplementation {
  return {
    Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<object>) => {
      callback(null, {});
      setImmediate(shutdown);
    },
  };
}

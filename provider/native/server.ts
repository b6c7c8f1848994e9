/**
 * The native plugin's front door: Pulumi's `ResourceProvider` gRPC service, on the protocol's
 * generated stubs, as a thin adapter over the one lifecycle (`createProvider`, runtime.ts).
 * Here the methods a provider answers without a lifecycle (plugin info, the schema as the build
 * embedded it); the others are lifecycleCalls.ts, loaded by the first of them, so that the port
 * is printed without loading zod, the client or the lifecycle.
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { LifecycleCalls } from "./lifecycleCalls";
import type { NativeProviderOptions } from "./options";
import { requestUrn, warningsSent } from "./requestScope";

export type { NativeProviderOptions } from "./options";

/** A handler's failure as the engine shows it: the message, no stack. */
function failure(err: unknown): grpc.ServiceError {
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(message), {
    code: grpc.status.UNKNOWN,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

/**
 * Wraps an async handler: its result or its error goes to the callback, after the warnings it
 * logged; the request's URN is what those warnings are attached to.
 */
function unary<Req, Res>(handle: (request: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const urn = (call.request as { getUrn?: () => string }).getUrn?.() ?? "";
    void requestUrn.run(urn, () =>
      handle(call.request).then(
        async (response) => {
          await warningsSent();
          callback(null, response);
        },
        async (err: unknown) => {
          await warningsSent();
          callback(failure(err));
        },
      ),
    );
  };
}

function unimplemented(method: string): grpc.handleUnaryCall<unknown, never> {
  return (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by the webhooks provider` });
}

/**
 * The `ResourceProvider` service over one lifecycle instance (one plugin process serves one
 * provider: the default one or an explicit one).
 */
export function nativeProvider(options: NativeProviderOptions): provrpc.IResourceProviderServer {
  // One load, by the first call that needs the lifecycle (a failed load fails that call and is tried again).
  let calls: Promise<LifecycleCalls> | undefined;
  const lifecycle = (): Promise<LifecycleCalls> =>
    (calls ??= import("./lifecycleCalls").then(
      (loaded) => loaded.lifecycleCalls(options),
      (err: unknown) => {
        calls = undefined;
        throw err;
      },
    ));
  const call = <Req, Res>(pick: (calls: LifecycleCalls) => (request: Req) => Promise<Res>) =>
    unary<Req, Res>(async (request) => pick(await lifecycle())(request));

  // Made once: every engine and language host that loads the plugin asks for them.
  const info = new plugproto.PluginInfo().setVersion(options.version);
  const schema = new provproto.GetSchemaResponse().setSchema(options.schema);

  return {
    getPluginInfo: unary(async () => info),
    getSchema: unary(async (request: provproto.GetSchemaRequest) => {
      if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
      return schema;
    }),

    checkConfig: call((c) => c.checkConfig),
    diffConfig: call((c) => c.diffConfig),
    configure: call((c) => c.configure),
    check: call((c) => c.check),
    diff: call((c) => c.diff),
    create: call((c) => c.create),
    read: call((c) => c.read),
    update: call((c) => c.update),
    delete: call((c) => c.delete),
    invoke: call((c) => c.invoke),

    // Nothing in flight outlives its call, so there is nothing to cancel.
    cancel: unary(async () => new Empty()),
    // The engine attaches to a provider started by hand (PULUMI_DEBUG_PROVIDERS); such a provider
    // has no engine address to log to, so its warnings stay on stderr: attaching is only acknowledged.
    attach: unary(async () => new Empty()),
    getMapping: unary(async () => new provproto.GetMappingResponse().setProvider("").setData("")),
    getMappings: unary(async () => new provproto.GetMappingsResponse()),

    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    list: (call) =>
      call.destroy(Object.assign(new Error("List is not implemented"), { code: grpc.status.UNIMPLEMENTED })),
  };
}

/** A running plugin server. */
export interface RunningPlugin {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the provider on `127.0.0.1:<port>` (0: a free one). */
export async function serve(options: NativeProviderOptions, port = 0): Promise<RunningPlugin> {
  // No channelz, as in the Terraform door (goPlugin/serve.ts): nothing reads it.
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400, "grpc.enable_channelz": 0 });
  server.addService(provrpc.ResourceProviderService, nativeProvider(options));
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * The Terraform and OpenTofu front door of the plugin executable: the launcher (launcher/) calls
 * `serveTerraform` when the process was started with go-plugin's magic cookie. It reads the
 * client's handshake, serves tfplugin6 and go-plugin's services, prints the handshake line, and
 * exits when the client says Shutdown. The calls that describe the provider are answered from its
 * schema (describe.ts); the others (provider.ts: the core, zod, the client) are loaded by the first
 * of them, after the handshake line, as the Pulumi door does.
 */
import * as grpc from "@grpc/grpc-js";
import { describingCalls, isDescribingCall, type DescribingCall } from "./describe";
import { serviceDefinition } from "./protocol/services";
import { embeddedSchema } from "./schema";
import { handshakeRequest } from "./goPlugin/handshake";
import { serveGoPlugin } from "./goPlugin/serve";
import type { TerraformProviderOptions } from "./provider";

/**
 * The Provider service: the describing calls from the schema, the others from their
 * implementation, loaded on the first of them (a failed load fails that call and is tried again).
 */
function lazyProvider(
  definition: grpc.ServiceDefinition,
  options: TerraformProviderOptions,
): grpc.UntypedServiceImplementation {
  // The schema is built once (embeddedSchema); each answer is made from it when asked.
  const describe = (method: DescribingCall) => describingCalls(embeddedSchema(options.description))[method]();
  let loaded: Promise<grpc.UntypedServiceImplementation> | undefined;
  const load = () =>
    (loaded ??= import("./provider").then(
      (provider) => provider.terraformProvider(options),
      (err: unknown) => {
        loaded = undefined;
        throw err;
      },
    ));
  return Object.fromEntries(
    // The unary calls: the streaming ones (list resources, actions, state stores) are none of this provider's.
    Object.entries(definition)
      .filter(([, method]) => !method.requestStream && !method.responseStream)
      .map(([method]) => [
        method,
        isDescribingCall(method)
          ? (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
              let answer: unknown;
              try {
                answer = describe(method);
              } catch (err) {
                return callback({ code: grpc.status.INTERNAL, details: String(err) });
              }
              callback(null, answer);
            }
          : (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) =>
              load().then(
                (implementation) => {
                  const handler = implementation[method] as grpc.handleUnaryCall<unknown, unknown> | undefined;
                  if (handler) handler(call, callback);
                  else
                    callback({
                      code: grpc.status.UNIMPLEMENTED,
                      details: `${method} is not implemented by the webhooks provider`,
                    });
                },
                (err: unknown) => callback({ code: grpc.status.INTERNAL, details: String(err) }),
              ),
      ]),
  );
}

/**
 * Serves the provider for Terraform or OpenTofu; `description` is the resource's description the
 * build embedded (provider/description/), as JSON.
 */
export async function serveTerraform(plugin: { description: string; version: string }): Promise<void> {
  const request = handshakeRequest();
  const definition = serviceDefinition("tfplugin6.Provider");
  const running = await serveGoPlugin(
    request,
    { definition, implementation: lazyProvider(definition, { description: plugin.description }) },
    serviceDefinition,
    () => process.exit(0),
  );
  process.stdout.write(`${running.line}\n`);
}

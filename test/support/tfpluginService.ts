/**
 * The Terraform front door's tfplugin6 service object driven as its gRPC server drives it, for
 * tests that need no process: the plugin's schema as the build writes it, and one call by name.
 */
import type * as grpc from "@grpc/grpc-js";
import { pluginSchema } from "../../provider/native/schema";
import { readSchemaDeclarations } from "../../scripts/schemaDeclarations";

/** What the tests read of a response. */
export type ServiceResponse = {
  diagnostics?: Array<{ summary?: string; detail?: string }>;
  new_state?: { msgpack?: Buffer };
};

/** The plugin's Pulumi package schema, JSON (readSchemaDeclarations runs the TypeScript compiler: seconds). */
export function testPluginSchema(): string {
  return JSON.stringify(pluginSchema("0.0.0-test", readSchemaDeclarations()));
}

/** Calls one method the way the gRPC server does. */
export function callService(
  service: grpc.UntypedServiceImplementation,
  method: string,
  request: object,
): Promise<ServiceResponse> {
  return new Promise((resolve, reject) => {
    const handler = service[method] as grpc.handleUnaryCall<object, ServiceResponse>;
    handler({ request } as grpc.ServerUnaryCall<object, ServiceResponse>, (err, response) =>
      err ? reject(err) : resolve(response!),
    );
  });
}

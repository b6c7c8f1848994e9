/**
 * The Terraform front door's tfplugin6 service object driven as its gRPC server drives it, for
 * tests that need no process: the resource's description as the build writes it, and one call by name.
 */
import type * as grpc from "@grpc/grpc-js";
import { resourceDescription } from "../../scripts/packageSchema";

/** What the tests read of a response. */
export type ServiceResponse = {
  diagnostics?: Array<{ summary?: string; detail?: string }>;
  new_state?: { msgpack?: Buffer };
};

/** The resource's description the Terraform door reads, JSON (it runs the TypeScript compiler: seconds). */
export function testResourceDescription(): string {
  return JSON.stringify(resourceDescription());
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

/**
 * The protocol's gRPC services as @grpc/grpc-js definitions, from the generated descriptor
 * (descriptor.ts): each method's path and its messages' encoding with protobufjs's light build (no
 * .proto parser at run time). Messages are plain objects with the .proto's snake_case field names,
 * enums as numbers, 64-bit integers as numbers and bytes as Buffers.
 */
import type * as grpc from "@grpc/grpc-js";
import * as protobuf from "protobufjs/light";
import { PROTOCOL_DESCRIPTOR } from "./descriptor";

const root = protobuf.Root.fromJSON(PROTOCOL_DESCRIPTOR);

/** How a decoded message looks: defaults filled in, so a handler reads `request.config?.msgpack` plainly. */
const AS_OBJECT: protobuf.IConversionOptions = {
  longs: Number,
  enums: Number,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/** A service's definition for `grpc.Server.addService`, by its full name (`tfplugin6.Provider`). */
export function serviceDefinition(name: string): grpc.ServiceDefinition {
  const service = root.lookupService(name);
  return Object.fromEntries(
    service.methodsArray.map((method) => {
      method.resolve();
      const request = method.resolvedRequestType!;
      const response = method.resolvedResponseType!;
      return [
        method.name,
        {
          path: `/${name}/${method.name}`,
          requestStream: method.requestStream ?? false,
          responseStream: method.responseStream ?? false,
          requestSerialize: (value: object) => Buffer.from(request.encode(request.fromObject(value)).finish()),
          requestDeserialize: (bytes: Buffer) => request.toObject(request.decode(bytes), AS_OBJECT),
          responseSerialize: (value: object) => Buffer.from(response.encode(response.fromObject(value)).finish()),
          responseDeserialize: (bytes: Buffer) => response.toObject(response.decode(bytes), AS_OBJECT),
          originalName: method.name,
        },
      ];
    }),
  ) as grpc.ServiceDefinition;
}

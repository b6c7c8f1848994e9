/**
 * The protocol's gRPC services as @grpc/grpc-js definitions, from the generated module
 * (messages.ts): each method's path from its table, and its messages' encoding with the codecs
 * it holds, protobufjs's generated functions written out at build time (scripts/genTerraformProtocol.ts),
 * so that a launch compiles none with `Function()` and the executable's code cache holds those it
 * calls. Messages are plain objects with the .proto's snake_case field names, enums as numbers,
 * 64-bit integers as numbers and bytes as Buffers.
 */
import type * as grpc from "@grpc/grpc-js";
import type { IConversionOptions } from "protobufjs/minimal";
import type { MessageCodec } from "./methods";
import { MESSAGES, PROTOCOL_SERVICES } from "./messages";

/** How a decoded message looks: defaults filled in, so a handler reads `request.config?.msgpack` plainly. */
const AS_OBJECT: IConversionOptions = {
  longs: Number,
  enums: Number,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

const encode = (codec: MessageCodec, value: object) => Buffer.from(codec.encode(codec.fromObject(value)).finish());
const decode = (codec: MessageCodec, bytes: Buffer) => codec.toObject(codec.decode(bytes), AS_OBJECT);

/** A service's definition for `grpc.Server.addService`, by its full name (`tfplugin6.Provider`). */
export function serviceDefinition(name: string): grpc.ServiceDefinition {
  const methods = PROTOCOL_SERVICES[name];
  if (!methods) throw new Error(`no service ${name} in the protocol descriptor`);
  return Object.fromEntries(
    Object.entries(methods).map(([method, descriptor]) => {
      const request = MESSAGES[descriptor.request]!;
      const response = MESSAGES[descriptor.response]!;
      return [
        method,
        {
          path: `/${name}/${method}`,
          requestStream: descriptor.requestStream,
          responseStream: descriptor.responseStream,
          requestSerialize: (value: object) => encode(request, value),
          requestDeserialize: (bytes: Buffer) => decode(request, bytes),
          responseSerialize: (value: object) => encode(response, value),
          responseDeserialize: (bytes: Buffer) => decode(response, bytes),
          originalName: method,
        },
      ];
    }),
  ) as grpc.ServiceDefinition;
}

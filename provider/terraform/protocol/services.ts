/**
 * The protocol's gRPC services as @grpc/grpc-js definitions, from the generated descriptor
 * (descriptor.ts): each method's path from the generated table, and its messages' encoding with
 * protobufjs's light build (no .proto parser at run time). A method's message types are built on
 * its first message, from only the declarations it needs: a launch is called on a handful of the
 * protocol's methods, and building all of its types cost more than the rest of the start.
 * Messages are plain objects with the .proto's snake_case field names, enums as numbers, 64-bit
 * integers as numbers and bytes as Buffers.
 */
import type * as grpc from "@grpc/grpc-js";
import * as protobuf from "protobufjs/light";
import { PROTOCOL_DESCRIPTOR, PROTOCOL_SERVICES } from "./descriptor";
import type { MethodDescriptor } from "./methods";

/** How a decoded message looks: defaults filled in, so a handler reads `request.config?.msgpack` plainly. */
const AS_OBJECT: protobuf.IConversionOptions = {
  longs: Number,
  enums: Number,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/** The descriptor cut down to `declarations` (full names), each whole, in its packages. */
function subset(declarations: readonly string[]): protobuf.INamespace {
  const out: protobuf.INamespace = { nested: {} };
  for (const name of declarations) {
    const parts = name.split(".");
    const last = parts.pop()!;
    let from = PROTOCOL_DESCRIPTOR;
    let to = out;
    for (const part of parts) {
      from = from.nested![part] as protobuf.INamespace;
      to = (to.nested![part] ??= { nested: {} }) as protobuf.INamespace;
    }
    to.nested![last] = from.nested![last]!;
  }
  return out;
}

/** A method's request and response types, built on first use. */
function messageTypes(method: MethodDescriptor): () => { request: protobuf.Type; response: protobuf.Type } {
  let types: { request: protobuf.Type; response: protobuf.Type } | undefined;
  return () => {
    if (!types) {
      const root = protobuf.Root.fromJSON(subset(method.declarations));
      types = { request: root.lookupType(method.request), response: root.lookupType(method.response) };
    }
    return types;
  };
}

/** A service's definition for `grpc.Server.addService`, by its full name (`tfplugin6.Provider`). */
export function serviceDefinition(name: string): grpc.ServiceDefinition {
  const methods = PROTOCOL_SERVICES[name];
  if (!methods) throw new Error(`no service ${name} in the protocol descriptor`);
  return Object.fromEntries(
    Object.entries(methods).map(([method, descriptor]) => {
      const types = messageTypes(descriptor);
      return [
        method,
        {
          path: `/${name}/${method}`,
          requestStream: descriptor.requestStream,
          responseStream: descriptor.responseStream,
          requestSerialize: (value: object) => encode(types().request, value),
          requestDeserialize: (bytes: Buffer) => decode(types().request, bytes),
          responseSerialize: (value: object) => encode(types().response, value),
          responseDeserialize: (bytes: Buffer) => decode(types().response, bytes),
          originalName: method,
        },
      ];
    }),
  ) as grpc.ServiceDefinition;
}

const encode = (type: protobuf.Type, value: object) => Buffer.from(type.encode(type.fromObject(value)).finish());
const decode = (type: protobuf.Type, bytes: Buffer) => type.toObject(type.decode(bytes), AS_OBJECT);

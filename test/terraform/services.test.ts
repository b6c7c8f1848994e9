/**
 * The protocol's service definitions (provider/terraform/protocol/services.ts): ready for grpc-js,
 * their messages encoded and decoded by the generated static codecs (messages.ts) with no code
 * compiled at run time, byte for byte and field for field as protobufjs's reflection does from the
 * .proto files.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as protobuf from "protobufjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { protocolRoot } from "../../provider/terraform/protocol/parse";

const AS_OBJECT: protobuf.IConversionOptions = {
  longs: Number,
  enums: Number,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/**
 * A message of `type` with every field set (the first member of each oneof), down to `depth`
 * levels of nested messages: distinct values per field, so that a field written under another's
 * number shows.
 */
function sample(type: protobuf.Type, depth = 3): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const taken = new Set<string>();
  type.fieldsArray.forEach((field, i) => {
    const oneof = field.partOf?.name;
    if (oneof && taken.has(oneof)) return;
    const value = scalar(field, i, depth);
    if (value === undefined) return;
    if (oneof) taken.add(oneof);
    // Every map of the protocol is keyed by strings.
    out[field.name] = field.map ? { [`k${i}`]: value } : field.repeated ? [value, value] : value;
  });
  return out;
}

function scalar(field: protobuf.Field, i: number, depth: number): unknown {
  const resolved = field.resolvedType;
  if (resolved && "fieldsArray" in resolved)
    return depth > 0 ? sample(resolved as protobuf.Type, depth - 1) : undefined;
  if (resolved) return Math.max(...Object.values((resolved as protobuf.Enum).values));
  switch (field.type) {
    case "string":
      return `s${i}`;
    case "bytes":
      return Buffer.from([i, 0x81, 0xff]);
    case "bool":
      return true;
    case "double":
    case "float":
      return i + 0.5;
    default:
      return field.type.startsWith("u") || field.type.startsWith("fixed") ? i + 300 : -(i + 300);
  }
}

/** Every method's request and response type with its definition, by `Service/Method`. */
function allMethods() {
  const root = protocolRoot(`${__dirname}/../../provider/terraform/protocol`);
  return import("../../provider/terraform/protocol/services").then(({ serviceDefinition }) =>
    ["tfplugin6.Provider", "plugin.GRPCBroker", "plugin.GRPCController", "plugin.GRPCStdio"].flatMap((service) =>
      Object.entries(serviceDefinition(service)).map(([name, method]) => {
        const reflected = root.lookupService(service).methods[name]!;
        return {
          name: `${service}/${name}`,
          method: method as grpc.MethodDefinition<object, object>,
          request: root.lookupType(reflected.requestType),
          response: root.lookupType(reflected.responseType),
        };
      }),
    ),
  );
}

describe("the protocol's service definitions", () => {
  afterEach(() => vi.restoreAllMocks());

  it("encode and decode every method's messages with no code compiled at run time", async () => {
    vi.resetModules();
    const compile = vi.spyOn(globalThis, "Function");
    const methods = await allMethods();
    compile.mockClear();
    for (const { method, request, response } of methods) {
      method.requestDeserialize(method.requestSerialize(sample(request)));
      method.responseDeserialize(method.responseSerialize(sample(response)));
    }
    expect(compile).not.toHaveBeenCalled();
    // The spy sees what protobufjs's reflection compiles.
    const type = protocolRoot(`${__dirname}/../../provider/terraform/protocol`).lookupType("tfplugin6.Schema");
    type.encode(type.fromObject({}));
    expect(compile).toHaveBeenCalled();
  });

  it("encode and decode as protobufjs's reflection does, for every method's messages", async () => {
    for (const { name, method, request, response } of await allMethods())
      for (const [type, serialize, deserialize] of [
        [request, method.requestSerialize, method.requestDeserialize],
        [response, method.responseSerialize, method.responseDeserialize],
      ] as const) {
        const message = sample(type);
        const bytes = serialize(message);
        expect(bytes, `${name}: ${type.fullName}`).toEqual(Buffer.from(type.encode(type.fromObject(message)).finish()));
        expect(deserialize(bytes), `${name}: ${type.fullName}`).toEqual(type.toObject(type.decode(bytes), AS_OBJECT));
        expect(deserialize(Buffer.alloc(0)), `${name}: ${type.fullName}`).toEqual(
          type.toObject(type.decode(Buffer.alloc(0)), AS_OBJECT),
        );
      }
  });

  it("reject a field of the wrong shape as protobufjs's reflection does", async () => {
    const { method, request } = (await allMethods()).find((m) => m.name === "tfplugin6.Provider/PlanResourceChange")!;
    const bad = { prior_state: "not an object" };
    expect(() => method.requestSerialize(bad)).toThrow(
      (() => {
        try {
          request.fromObject(bad);
        } catch (err) {
          return (err as Error).message;
        }
        throw new Error("reflection accepted it");
      })(),
    );
  });

  it("names a service the protocol does not have", async () => {
    const { serviceDefinition } = await import("../../provider/terraform/protocol/services");
    expect(() => serviceDefinition("tfplugin6.Nothing")).toThrow(
      "no service tfplugin6.Nothing in the protocol descriptor",
    );
  });
});

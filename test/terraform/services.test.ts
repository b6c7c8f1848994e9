/**
 * The protocol's service definitions (provider/terraform/protocol/services.ts): ready for grpc-js
 * without building a message type, each method's types built on its first message from only the
 * declarations that method needs.
 */
import * as protobuf from "protobufjs/light";
import { afterEach, describe, expect, it, vi } from "vitest";

describe("the protocol's service definitions", () => {
  afterEach(() => vi.restoreAllMocks());

  it("build no message type until a method's first message, then only what it needs", async () => {
    vi.resetModules();
    const fromJSON = vi.spyOn(protobuf.Root, "fromJSON");
    const { serviceDefinition } = await import("../../provider/terraform/protocol/services");
    const { PROTOCOL_DESCRIPTOR } = await import("../../provider/terraform/protocol/descriptor");
    const provider = serviceDefinition("tfplugin6.Provider");
    expect(provider.GetMetadata!.path).toBe("/tfplugin6.Provider/GetMetadata");
    expect(fromJSON).not.toHaveBeenCalled();

    const bytes = provider.GetMetadata!.responseSerialize({ resources: [{ type_name: "webhooks_subscription" }] });
    expect(provider.GetMetadata!.responseDeserialize(bytes)).toMatchObject({
      resources: [{ type_name: "webhooks_subscription" }],
    });
    expect(fromJSON).toHaveBeenCalledTimes(1);
    const built = Object.keys((fromJSON.mock.calls[0]![0].nested!.tfplugin6 as protobuf.INamespace).nested!);
    const all = Object.keys((PROTOCOL_DESCRIPTOR.nested!.tfplugin6 as protobuf.INamespace).nested!);
    expect(built).toContain("GetMetadata");
    expect(built.length).toBeLessThan(all.length / 4);
  });

  it("names a service the protocol does not have", async () => {
    const { serviceDefinition } = await import("../../provider/terraform/protocol/services");
    expect(() => serviceDefinition("tfplugin6.Nothing")).toThrow(
      "no service tfplugin6.Nothing in the protocol descriptor",
    );
  });
});

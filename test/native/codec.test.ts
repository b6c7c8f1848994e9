/**
 * The native plugin's property codec: the engine's secret and unknown encodings, both ways.
 */
import * as pulumi from "@pulumi/pulumi";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { decode, encode, UNKNOWN } from "../../provider/native/codec";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });

describe("decode", () => {
  it("unwraps secrets at any depth and names the top-level properties that held one", () => {
    const decoded = decode(
      Struct.fromJavaScript({
        customHeaderValue: secret("k1"),
        subscriberUrl: "https://hooks.example.com/a",
        nested: { list: [1, secret("inner")] },
      }),
    );
    expect(decoded.values).toEqual({
      customHeaderValue: "k1",
      subscriberUrl: "https://hooks.example.com/a",
      nested: { list: [1, "inner"] },
    });
    expect([...decoded.secrets].sort()).toEqual(["customHeaderValue", "nested"]);
  });

  it("keeps unknowns as the engine's sentinel, also inside a secret", () => {
    const decoded = decode(Struct.fromJavaScript({ subscriberUrl: UNKNOWN, customHeaderValue: secret(UNKNOWN) }));
    expect(decoded.values).toEqual({ subscriberUrl: UNKNOWN, customHeaderValue: UNKNOWN });
    expect([...decoded.secrets]).toEqual(["customHeaderValue"]);
  });

  it("reads a missing Struct as no properties", () => {
    expect(decode(undefined)).toEqual({ values: {}, secrets: new Set() });
  });
});

describe("encode", () => {
  it("wraps the named properties as secrets, unknowns included, and leaves undefined out", () => {
    const struct = encode({ signature: "s1", guid: UNKNOWN, customHeaderValue: UNKNOWN, gone: undefined }, [
      "signature",
      "customHeaderValue",
    ]);
    expect(struct.toJavaScript()).toEqual({
      signature: secret("s1"),
      guid: UNKNOWN,
      customHeaderValue: secret(UNKNOWN),
    });
  });

  it("sends plain values to an engine that does not accept secrets", () => {
    expect(encode({ signature: "s1" }, ["signature"], false).toJavaScript()).toEqual({ signature: "s1" });
  });

  it("round-trips with decode", () => {
    const values = { a: "x", b: null, c: 3, d: [true, { e: "f" }] };
    const decoded = decode(encode(values, ["b", "d"]));
    expect(decoded).toEqual({ values, secrets: new Set(["b", "d"]) });
  });

  it("uses the SDK's constants", () => {
    expect([pulumi.runtime.specialSigKey, pulumi.runtime.specialSecretSig, pulumi.runtime.unknownValue]).toEqual([
      SIG,
      SECRET,
      UNKNOWN,
    ]);
    expect(UNKNOWN).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
  });
});

/**
 * The cty/msgpack codec: values round-trip against their type, unknowns keep their extension and
 * refinements, and the bytes are what cty writes (OpenTofu docs/plugin-protocol/object-wire-format.md).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromJson,
  fromMsgpack,
  toMsgpack,
  Unknown,
  type CtyType,
  type Value,
} from "../../provider/terraform/values/codec";
import { FUZZ_SEED } from "../support/fuzzSeed";

const TYPE: CtyType = [
  "object",
  {
    name: "string",
    count: "number",
    on: "bool",
    items: ["list", ["object", { guid: "string", kind: "number" }]],
  },
];

const unknown = fc.oneof(
  fc.constant(new Unknown()),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((data) => new Unknown(12, data)),
);
const orNull = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null), unknown);
const value: fc.Arbitrary<Value> = fc.record({
  name: orNull(fc.string()),
  count: orNull(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))),
  on: orNull(fc.boolean()),
  items: orNull(fc.array(fc.record({ guid: orNull(fc.uuid()), kind: orNull(fc.integer({ min: 0, max: 5 })) }))),
}) as fc.Arbitrary<Value>;

describe(`the cty codec (seed ${FUZZ_SEED})`, () => {
  it("reads back what it writes, unknowns and their refinements included", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(fromMsgpack(toMsgpack(v, TYPE), TYPE)).toEqual(v);
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
  });

  it("writes an unknown as extension 0 (d4 00 00) and keeps a refined one as it came (extension 12)", () => {
    expect(Buffer.from(toMsgpack(new Unknown(), "string")).toString("hex")).toBe("d40000");
    const decoded = fromMsgpack(Buffer.from("c7030c810201", "hex"), "string");
    expect(decoded).toEqual(new Unknown(12, Uint8Array.from([0x81, 0x02, 0x01])));
    expect(Buffer.from(toMsgpack(decoded, "string")).toString("hex")).toBe("c7030c810201");
  });

  it("writes every attribute of an object, null where unset, and reads a large number sent as a string", () => {
    const bytes = toMsgpack({ name: "x" }, ["object", { name: "string", count: "number" }]);
    expect(fromMsgpack(bytes, ["object", { name: "string", count: "number" }])).toEqual({ name: "x", count: null });
    // cty writes a number beyond float64's integers as its decimal string.
    expect(fromMsgpack(Buffer.from("a3313233", "hex"), "number")).toBe(123);
  });

  it("reads JSON (a raw state), leaving out attributes the type does not have", () => {
    expect(
      fromJson('{"name":"a","count":2,"gone":true}', ["object", { name: "string", count: "number", on: "bool" }]),
    ).toEqual({
      name: "a",
      count: 2,
      on: null,
    });
  });

  it("refuses a value of the wrong type, naming where", () => {
    expect(() => toMsgpack({ name: 1 } as never, ["object", { name: "string" }])).toThrow(
      /value at \.name is not a "string"/,
    );
  });
});

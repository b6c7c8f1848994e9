/**
 * The one codec of Terraform values: cty's msgpack wire format (OpenTofu
 * docs/plugin-protocol/object-wire-format.md) and its JSON form (the raw state that
 * UpgradeResourceState gets), both read against the schema's type. Every value that crosses the
 * protocol goes through here; nothing else knows msgpack.
 *
 * - a value not known yet is msgpack extension 0; a refined unknown (extension 12, e.g. "not null"
 *   or a string prefix) is kept as it came, so it goes back exactly as Terraform sent it;
 * - null is nil; a number may come as an integer, a float or (beyond float64) a decimal string.
 */
import { Decoder, Encoder, ExtensionCodec } from "@msgpack/msgpack";

/** A cty type as the schema declares it (its JSON form, e.g. `"string"` or `["list", …]`). */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | readonly ["list" | "set" | "map", CtyType]
  | readonly ["object", Readonly<Record<string, CtyType>>];

/** A value not known yet (until apply). */
export class Unknown {
  /**
   * @param extension the msgpack extension it came as: 0, or 12 with its refinements in `data`.
   * @param data the refinements, as they came; for a plain unknown, cty's one zero byte (`d4 00 00`).
   */
  constructor(
    readonly extension: 0 | 12 = 0,
    readonly data: Uint8Array = Uint8Array.of(0),
  ) {}
}

/** The plain unknown. */
export const UNKNOWN_VALUE = new Unknown();

/** A decoded value: what JSON would hold, plus Unknown. */
export type Value = null | string | number | boolean | Unknown | Value[] | { [name: string]: Value };

const extensions = new ExtensionCodec();
for (const extension of [0, 12] as const)
  extensions.register({
    type: extension,
    encode: (input: unknown) => (input instanceof Unknown && input.extension === extension ? input.data : null),
    decode: (data: Uint8Array) => new Unknown(extension, Uint8Array.from(data)),
  });

/** One of each for the process, as the library advises: a new one per value costs its buffers (and a call re-entered gets a copy). */
const decoder = new Decoder({ extensionCodec: extensions });
const encoder = new Encoder({ extensionCodec: extensions, ignoreUndefined: false });

/** Fails with the path where a value does not fit its type: a bug of ours or of the client. */
function mismatch(path: string, type: CtyType, value: unknown): never {
  throw new TypeError(`value at ${path || "the root"} is not a ${JSON.stringify(type)}: ${typeof value}`);
}

/** The path of `key` under `parent` (`.name`, `[0]`); built only for a mismatch or a container. */
const pathOf = (parent: string, key: string | number | undefined): string =>
  key === undefined ? parent : typeof key === "number" ? `${parent}[${key}]` : `${parent}.${key}`;

/**
 * A decoded tree checked against `type` (numbers as numbers, objects with every attribute). Every
 * value that crosses the protocol comes through here, so it builds no path and no entry arrays on
 * the way: `parent` and `key` say where the value is, for the message of a mismatch.
 */
function shaped(value: unknown, type: CtyType, parent = "", key?: string | number): Value {
  if (value === null || value === undefined) return null;
  if (value instanceof Unknown) return value;
  if (type === "string") return typeof value === "string" ? value : mismatch(pathOf(parent, key), type, value);
  if (type === "bool") return typeof value === "boolean" ? value : mismatch(pathOf(parent, key), type, value);
  if (type === "number") {
    const number = typeof value === "string" ? Number(value) : value;
    return typeof number === "number" && !Number.isNaN(number) ? number : mismatch(pathOf(parent, key), type, value);
  }
  const path = pathOf(parent, key);
  const [kind, inner] = type;
  if (kind === "list" || kind === "set") {
    if (!Array.isArray(value)) return mismatch(path, type, value);
    return value.map((item, i) => shaped(item, inner, path, i));
  }
  if (typeof value !== "object" || Array.isArray(value)) return mismatch(path, type, value);
  const record = value as Record<string, unknown>;
  // A map's keys are the client's (defined, never assigned: `__proto__` stays a key); an object's, the schema's.
  if (kind === "map")
    return Object.fromEntries(Object.entries(record).map(([name, item]) => [name, shaped(item, inner, path, name)]));
  const attributeTypes = inner as Readonly<Record<string, CtyType>>;
  const attributes: Record<string, Value> = {};
  for (const name in attributeTypes) attributes[name] = shaped(record[name], attributeTypes[name]!, path, name);
  return attributes;
}

/** Reads a msgpack DynamicValue against its type. */
export function fromMsgpack(bytes: Uint8Array, type: CtyType): Value {
  return shaped(decoder.decode(bytes), type);
}

/** Reads a JSON DynamicValue (or a raw state's JSON) against its type; attributes it lacks are null. */
export function fromJson(bytes: Uint8Array | string, type: CtyType): Value {
  const text = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("utf8");
  return shaped(JSON.parse(text), type);
}

/** Writes a value as msgpack against its type: an object gets every attribute of its type, null where unset. */
export function toMsgpack(value: Value, type: CtyType): Uint8Array {
  return encoder.encode(shaped(value, type));
}

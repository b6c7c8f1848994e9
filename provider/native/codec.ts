/**
 * Property values between the engine's wire form (a protobuf `Struct`) and the plain objects
 * the lifecycle takes. The engine encodes two special values inside the Struct:
 *
 * - a secret is an object `{ [specialSigKey]: specialSecretSig, value }` (when the provider said
 *   it accepts secrets at Configure);
 * - a value not known yet (preview) is the sentinel string `unknownValue`.
 *
 * The constants are the protocol's (the SDK's `pulumi.runtime` has the same, test/native/codec.test.ts
 * pins them): written here so the plugin's bundle leaves out the SDK, whose top-level module loads
 * the TypeScript compiler (9 MB of the executable's start-up). Its `deserializeProperties` is
 * not used: it turns unknowns into `undefined` outside a program's dry run and builds Outputs,
 * assets and resource references a provider does not need. The lifecycle takes unknowns as the
 * sentinel (inputs.ts), so they pass through as they are.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { UNKNOWN } from "../core/inputs";

const specialSigKey = "4dabf18193072939515e22adb298388d";
const specialSecretSig = "1b47061264138c4ac30d75fd1eb44270";

/** The sentinel the engine sends, and expects back, for a value not known yet. */
export { UNKNOWN };

/** Top-level properties, secrets unwrapped, and which of them were secret (at any depth). */
export interface Decoded {
  readonly values: Record<string, unknown>;
  readonly secrets: ReadonlySet<string>;
}

function isSecret(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[specialSigKey] === specialSecretSig
  );
}

/** A value with every secret inside it unwrapped; `found` is told when there was one. */
function unwrap(value: unknown, found: () => void): unknown {
  if (isSecret(value)) {
    found();
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => unwrap(item, found));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unwrap(item, found)]));
  return value;
}

/** Reads a Struct: plain values, and the names of the properties that held a secret. */
export function decode(struct: Struct | undefined): Decoded {
  const secrets = new Set<string>();
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct?.toJavaScript() ?? {}))
    values[key] = unwrap(value, () => secrets.add(key));
  return { values, secrets };
}

/**
 * Writes a Struct. Properties named in `secrets` are wrapped as secrets (when the engine accepts
 * them; otherwise it marks them itself from the schema); `undefined` is left out, as the engine
 * has no such value.
 */
export function encode(values: object, secrets: Iterable<string> = [], acceptSecrets = true): Struct {
  const secret = new Set(acceptSecrets ? secrets : []);
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    wire[key] = secret.has(key) ? { [specialSigKey]: specialSecretSig, value } : value;
  }
  return Struct.fromJavaScript(wire as Parameters<typeof Struct.fromJavaScript>[0]);
}

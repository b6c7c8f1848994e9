/**
 * Which outputs of a WebhookSubscription are compared, which of them are secret, and how a
 * value read from state or from engine events is made comparable.
 */
import { SECRET_OUTPUTS, SUBSCRIPTION_FIELDS } from "../../../provider/model";
import { Webhook } from "../../../provider/wire";
import type { FieldValue } from "../../review/model";

/**
 * Outputs compared between state and the live subscription: the fields the service stores, and
 * the Signature it allocated. `guid` is the identity, and `webhookName` and `adoptGuid` are
 * derived or program-side, so none of them can drift.
 */
export const COMPARED_FIELDS = [...SUBSCRIPTION_FIELDS, "signature"] as const;

export type ComparedField = (typeof COMPARED_FIELDS)[number];

/** Outputs that are secret in state (`additionalSecretOutputs`); their values are never reported. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set<ComparedField>(SECRET_OUTPUTS);

/** The signature key Pulumi marks secret values with, in state and in engine events. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** What a secret looks like where its plaintext is not available (engine events mask it). */
export const MASKED = Symbol("masked secret");

/**
 * A value as found in state or in an engine event, unwrapped: a secret exported with
 * `--show-secrets` yields its plaintext, a masked one (`"[secret]"` ciphertext) yields MASKED.
 */
export function unwrapValue(value: unknown): FieldValue | typeof MASKED | undefined {
  if (value !== null && typeof value === "object" && SECRET_SIG in value) {
    const secret = value as { plaintext?: unknown };
    if (typeof secret.plaintext !== "string") return MASKED;
    return unwrapValue(JSON.parse(secret.plaintext));
  }
  if (value === undefined) return undefined;
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  // Objects and arrays do not occur in these outputs; compare them by their JSON text.
  return JSON.stringify(value);
}

/**
 * A value of `field` in the form two records of the same subscription agree on: the event as its
 * integer, whether a record holds it so (the dynamic provider, and the native plugin's state from
 * before event names, `webhook: 0`) or by name (the native plugin today, which reads the integer
 * as the same event).
 */
export function comparableValue(
  field: string,
  value: FieldValue | typeof MASKED | undefined,
): FieldValue | typeof MASKED | undefined {
  if (field === "webhook" && typeof value === "string" && Object.hasOwn(Webhook, value))
    return Webhook[value as keyof typeof Webhook];
  return value;
}

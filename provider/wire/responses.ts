/**
 * Reading responses liberally. The spec fixes one shape per operation, but the vendor's
 * documentation shows others for the same service: enumeration names instead of integers, a
 * one-element array instead of an object, no `Result`/`Messages` envelope around a created
 * subscription. Every shape either source shows is accepted here, and nothing else; requests
 * are still encoded exactly as the spec says (codec.ts).
 */
import { z } from "zod";
import { decodeSubscription, normalizeGuid, type Subscription } from "./codec";
import {
  KNOWN_WEBHOOK_NAMES,
  nameOrInteger,
  OBJECT_TYPE_NAMES,
  objectTypeFromName,
  webhookFromName,
} from "./enumNames";
import { WireGuid, WireObjectType, WireSubscription } from "./schemas";

const UPGRADE_ADVICE = "upgrade pulumi-webhook-subscriptions, or call an api-version that answers integers";

/** Webhook as an integer (any: a member newer than this package stays readable) or a known name. */
export const WireWebhookResponse = nameOrInteger(z.int(), webhookFromName, KNOWN_WEBHOOK_NAMES, UPGRADE_ADVICE);

/** FilterObjectType as an integer or one of the documented names. */
export const WireObjectTypeResponse = nameOrInteger(
  WireObjectType,
  objectTypeFromName,
  Object.keys(OBJECT_TYPE_NAMES),
  UPGRADE_ADVICE,
);

/** A subscription as any documented response carries it; decodes to the spec's integers. */
export const WireSubscriptionResponse = WireSubscription.extend({
  Webhook: WireWebhookResponse,
  FilterObjectType: WireObjectTypeResponse,
});

/**
 * Validates one subscription of a response: the spec's integer shape first, which nearly every
 * response has and which is cheaper to check, then the documented names. Issues, if any, are
 * those of the liberal schema, so they name every shape that would have been accepted.
 */
export function parseSubscriptionResponse(value: unknown): ReturnType<typeof WireSubscriptionResponse.safeParse> {
  const strict = WireSubscription.safeParse(value);
  return strict.success ? strict : WireSubscriptionResponse.safeParse(value);
}

/** A `{Result, Messages}` envelope: an object with a `Result` key that is not itself a subscription. */
export function isEnvelope(json: unknown): json is { Result: unknown; Messages?: unknown } {
  return typeof json === "object" && json !== null && !Array.isArray(json) && "Result" in json && !("GUID" in json);
}

/** What a response that should hold one subscription holds. */
export type SingleBody =
  /** One subscription-like value, still to validate. */
  | { readonly kind: "one"; readonly value: unknown }
  /** An empty array: for Get, no such subscription (documented Get answers are arrays). */
  | { readonly kind: "none" }
  /** An envelope whose Result is null: the request was refused (its Messages say why). */
  | { readonly kind: "refused" }
  /** Anything else: not JSON, a scalar, or an array of several. */
  | { readonly kind: "unrecognised" };

/**
 * Finds the one subscription in a response body (parsed JSON, undefined when not JSON): an
 * envelope `{Result, Messages}`, a bare object, or a one-element array, in any combination.
 */
export function singleSubscriptionBody(json: unknown): SingleBody {
  if (isEnvelope(json)) return json.Result == null ? { kind: "refused" } : unwrapArray(json.Result);
  return unwrapArray(json);
}

function unwrapArray(json: unknown): SingleBody {
  if (Array.isArray(json)) {
    if (json.length === 0) return { kind: "none" };
    return json.length === 1 ? { kind: "one", value: json[0] } : { kind: "unrecognised" };
  }
  return typeof json === "object" && json !== null ? { kind: "one", value: json } : { kind: "unrecognised" };
}

/** The entries of a list response: a bare array (spec, documentation) or an envelope holding one. */
export function subscriptionListBody(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (isEnvelope(json) && Array.isArray(json.Result)) return json.Result;
  return undefined;
}

/** A list entry that could not be read; the rest of the list still is. */
export interface UnreadableSubscription {
  /** Position in the list, from 0. */
  readonly index: number;
  /** The entry's GUID (lower-case) when it has a readable one, else null. */
  readonly guid: string | null;
  /** The first field at fault, e.g. `Webhook`; `""` when the entry is not an object. */
  readonly field: string;
  /** The value found there (never a secret: Signature and CustomHeaderValue are shown as their type only). */
  readonly value: unknown;
  /** A sentence naming the subscription, the field and the value. */
  readonly message: string;
}

/** A list response: the subscriptions that were read, and the entries that could not be. */
export interface SubscriptionList {
  readonly subscriptions: Subscription[];
  readonly problems: UnreadableSubscription[];
}

/** Lower-cased: a body may spell the field in any case (`signature`, `customHeaderValue`). */
const SECRET_FIELDS: ReadonlySet<string> = new Set(["signature", "customheadervalue"]);

/** Decodes each entry on its own, so that one unmappable entry fails only itself. */
export function decodeSubscriptionList(entries: readonly unknown[]): SubscriptionList {
  const subscriptions: Subscription[] = [];
  const problems: UnreadableSubscription[] = [];
  entries.forEach((entry, index) => {
    const parsed = parseSubscriptionResponse(entry);
    if (parsed.success) subscriptions.push(decodeSubscription(parsed.data));
    else problems.push(describeProblem(entry, index, parsed.error.issues));
  });
  return { subscriptions, problems };
}

function describeProblem(entry: unknown, index: number, issues: readonly z.core.$ZodIssue[]): UnreadableSubscription {
  const record = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : undefined;
  const rawGuid = record?.GUID;
  const guid = WireGuid.safeParse(rawGuid).success ? normalizeGuid(rawGuid as string) : null;
  const issue = issues[0];
  const field = record === undefined ? "" : String(issue?.path[0] ?? "");
  const found = record?.[field];
  const value = SECRET_FIELDS.has(field.toLowerCase()) && found != null ? `(a ${typeof found})` : found;
  const subject = guid ? `subscription ${guid}` : `list entry #${index}`;
  const reason =
    issue?.code === "custom"
      ? `${field} ${issue.message}`
      : `${field || "(entry)"} ${JSON.stringify(value) ?? "missing"}: ${issue?.message ?? "unreadable"}`;
  return { index, guid, field, value, message: `${subject} cannot be read: ${reason}.` };
}

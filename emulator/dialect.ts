/**
 * Dialects: how the emulator reads requests and shapes answers. `spec` (the default) answers
 * exactly as the spec; `vendor-docs` answers with the shapes the vendor's public documentation
 * shows for the same service, so the client can be tested against both. Each difference is
 * listed with its source in docs/emulator.md.
 */
import { z } from "zod";
import {
  EMPTY_GUID,
  WireGuid,
  WireValidationMessage,
  KNOWN_WEBHOOK_NAMES,
  OBJECT_TYPE_NAMES,
  nameOrInteger,
  objectTypeFromName,
  objectTypeName,
  webhookFromName,
  WireObjectType,
  WireSubscribeRequest,
  WireUpdateRequest,
  WireWebhookRequest,
  WEBHOOK_NAMES,
  type WireEnvelope,
} from "../provider/wire";
import { errorOutcome, type Outcome } from "./outcome";
import { StoredSubscription } from "./stateFile";

export const DIALECTS = ["spec", "vendor-docs"] as const;
export type DialectName = (typeof DIALECTS)[number];

/**
 * The shapes of a dialect's 200 answers, for the OpenAPI document (openapi.ts): zod schemas
 * of exactly what the functions below return; `null` is an empty `text/plain` body.
 */
export interface DialectShapes {
  /** One subscription as the answers below hold it. */
  readonly subscription: z.ZodType;
  readonly list: z.ZodType;
  readonly one: z.ZodType;
  readonly saved: z.ZodType;
  readonly unsubscribed: z.ZodType | null;
  /** JSON pointer to the new subscription's GUID in a `saved` answer (for the document's links). */
  readonly savedGuidPointer: string;
  /** Status of `getNotFound`. */
  readonly getNotFoundStatus: 400 | 404;
}

/** Everything that differs between dialects. */
export interface Dialect {
  readonly name: DialectName;
  readonly subscribeRequest: z.ZodType<WireSubscribeRequest, unknown>;
  readonly updateRequest: z.ZodType<WireUpdateRequest, unknown>;
  /** True when each account sees (lists, gets, updates, deletes) only the subscriptions it created. */
  readonly perAccount: boolean;
  /** How many times a failed delivery is sent again. */
  readonly deliveryRetries: number;
  /** Whether the "Webhook Test – Simulate Event" endpoint exists. */
  readonly simulateEvent: boolean;
  /** 200 answer of GetAllWebhookSubscriptions. */
  list(subscriptions: readonly StoredSubscription[]): Outcome;
  /** 200 answer of GetWebhookSubscription. */
  one(subscription: StoredSubscription): Outcome;
  /** 200 answer of SubscribeToWebhook and UpdateWebhookSubscription. */
  saved(subscription: StoredSubscription): Outcome;
  /** 200 answer of Unsubscribe. */
  unsubscribed(): Outcome;
  /** Answer of a Get whose GUID names no (visible) subscription. */
  getNotFound(guid: string): Outcome;
  readonly shapes: DialectShapes;
}

function envelope(result: StoredSubscription | true): WireEnvelope<unknown> {
  return { Result: result, Messages: [] };
}

/** 404 for a GUID that names no subscription (spec, Errors). */
export function notFound(guid: string): Outcome {
  return errorOutcome(404, `No webhook subscription has GUID ${guid}.`);
}

/** The envelope of a successful POST (spec): the result and no messages. */
function successEnvelope<T extends z.ZodType>(result: T) {
  return z.strictObject({ Result: result, Messages: z.array(WireValidationMessage).max(0) });
}

const SPEC: Dialect = {
  name: "spec",
  subscribeRequest: WireSubscribeRequest,
  updateRequest: WireUpdateRequest,
  perAccount: false,
  deliveryRetries: 0,
  simulateEvent: false,
  list: (subscriptions) => ({ status: 200, json: subscriptions }),
  one: (subscription) => ({ status: 200, json: subscription }),
  saved: (subscription) => ({ status: 200, json: envelope(subscription) }),
  unsubscribed: () => ({ status: 200, json: envelope(true) }),
  getNotFound: notFound,
  shapes: {
    subscription: StoredSubscription,
    list: z.array(StoredSubscription),
    one: StoredSubscription,
    saved: successEnvelope(StoredSubscription),
    unsubscribed: successEnvelope(z.literal(true)),
    savedGuidPointer: "/Result/GUID",
    getNotFoundStatus: 404,
  },
};

/** The documentation's list of webhooks names member 5 `BusinessObjectUpdated`. */
const VENDOR_WEBHOOK_NAMES: readonly string[] = WEBHOOK_NAMES.map((name) =>
  name === "BusinessObjectTypeUpdated" ? "BusinessObjectUpdated" : name,
);

/** A member as a name where the documentation names it, else its integer. */
function nameOr<T extends readonly [string, ...string[]]>(names: T, integer: z.ZodType<number>) {
  return z.union([z.enum(names), integer]);
}

/** A subscription as `vendorSubscription` returns it. */
export const VendorSubscription = StoredSubscription.extend({
  Webhook: nameOr(VENDOR_WEBHOOK_NAMES as [string, ...string[]], z.int()),
  FilterObjectGUID: WireGuid,
  FilterObjectType: nameOr(Object.keys(OBJECT_TYPE_NAMES) as [string, ...string[]], WireObjectType),
});

/** A subscription as the documentation's examples show it: names, and the all-zero GUID for no filter. */
export function vendorSubscription(subscription: StoredSubscription): z.infer<typeof VendorSubscription> {
  return {
    ...subscription,
    Webhook: VENDOR_WEBHOOK_NAMES[subscription.Webhook] ?? subscription.Webhook,
    FilterObjectGUID: subscription.FilterObjectGUID ?? EMPTY_GUID,
    FilterObjectType: objectTypeName(subscription.FilterObjectType) ?? subscription.FilterObjectType,
  };
}

const REQUEST_ADVICE = "send the integer instead";

/** Enumerations as the documentation's examples send them: a name or an integer. */
const vendorFields = {
  Webhook: nameOrInteger(WireWebhookRequest, webhookFromName, KNOWN_WEBHOOK_NAMES, REQUEST_ADVICE),
  FilterObjectType: nameOrInteger(WireObjectType, objectTypeFromName, Object.keys(OBJECT_TYPE_NAMES), REQUEST_ADVICE),
};

const VENDOR_DOCS: Dialect = {
  name: "vendor-docs",
  subscribeRequest: WireSubscribeRequest.extend(vendorFields) as z.ZodType<WireSubscribeRequest, unknown>,
  updateRequest: WireUpdateRequest.extend(vendorFields) as z.ZodType<WireUpdateRequest, unknown>,
  perAccount: true,
  deliveryRetries: 3,
  simulateEvent: true,
  list: (subscriptions) => ({ status: 200, json: subscriptions.map(vendorSubscription) }),
  one: (subscription) => ({ status: 200, json: [vendorSubscription(subscription)] }),
  saved: (subscription) => ({ status: 200, json: [vendorSubscription(subscription)] }),
  unsubscribed: () => ({ status: 200, text: "" }),
  getNotFound: () => errorOutcome(400, "The request is invalid."),
  shapes: {
    subscription: VendorSubscription,
    list: z.array(VendorSubscription),
    one: z.array(VendorSubscription).length(1),
    saved: z.array(VendorSubscription).length(1),
    unsubscribed: null,
    savedGuidPointer: "/0/GUID",
    getNotFoundStatus: 400,
  },
};

/** The dialect called `name`. */
export function dialectNamed(name: DialectName): Dialect {
  return name === "vendor-docs" ? VENDOR_DOCS : SPEC;
}

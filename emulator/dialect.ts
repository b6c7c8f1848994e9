/**
 * Dialects: how the emulator reads requests and shapes answers. `spec` (the default) answers
 * exactly as the spec; `vendor-docs` answers with the shapes the vendor's public documentation
 * shows for the same service, so the client can be tested against both. Each difference is
 * listed with its source in docs/emulator.md.
 */
import type { z } from "zod";
import {
  EMPTY_GUID,
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
import type { StoredSubscription } from "./stateFile";

export const DIALECTS = ["spec", "vendor-docs"] as const;
export type DialectName = (typeof DIALECTS)[number];

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
}

function envelope(result: StoredSubscription | true): WireEnvelope<unknown> {
  return { Result: result, Messages: [] };
}

/** 404 for a GUID that names no subscription (spec, Errors). */
export function notFound(guid: string): Outcome {
  return errorOutcome(404, `No webhook subscription has GUID ${guid}.`);
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
};

/** The documentation's list of webhooks names member 5 `BusinessObjectUpdated`. */
const VENDOR_WEBHOOK_NAMES: readonly string[] = WEBHOOK_NAMES.map((name) =>
  name === "BusinessObjectTypeUpdated" ? "BusinessObjectUpdated" : name,
);

/** A subscription as the documentation's examples show it: names, and the all-zero GUID for no filter. */
export function vendorSubscription(subscription: StoredSubscription): Record<string, unknown> {
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
};

/** The dialect called `name`. */
export function dialectNamed(name: DialectName): Dialect {
  return name === "vendor-docs" ? VENDOR_DOCS : SPEC;
}

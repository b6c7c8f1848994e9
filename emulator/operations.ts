/**
 * The five subscription operations, as the spec describes them, on an already authorised
 * request. They know nothing of HTTP framing, faults or rate limits: each takes the query and
 * the raw body and returns the Outcome to send.
 */
import { randomUUID } from "node:crypto";
import {
  CLOSED_PACKET_TEXT,
  formatMessage,
  MessageId,
  WEBHOOK_SUBSCRIPTION_OBJECT_TYPE,
  WireGuid,
  WireSubscribeRequest,
  WireUpdateRequest,
  type Operation,
  type WireEnvelope,
  type WireValidationMessage,
} from "../provider/wire";
import { errorOutcome, type Outcome } from "./outcome";
import { checkValue, readJsonRequest, type ReadResult } from "./requestBody";
import { buildSubscription, targetsClosedPacket, validateSubscription } from "./rules";
import type { StoredSubscription } from "./stateFile";
import type { Store } from "./store";

/** One API request as the operations see it. */
export interface OperationRequest {
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  readonly contentType: string | undefined;
  /** True on the legacy 2024.1 API, which answers closed-packet subscriptions differently. */
  readonly legacy: boolean;
}

/** An operation: its HTTP method and what it does. */
export interface OperationDefinition {
  readonly method: "GET" | "POST";
  handle(store: Store, request: OperationRequest): Promise<Outcome> | Outcome;
}

function envelope(
  result: StoredSubscription | true | null,
  messages: WireEnvelope<unknown>["Messages"] = [],
): WireEnvelope<unknown> {
  return { Result: result, Messages: messages };
}

/** Reads a required GUID query parameter; the name is matched exactly as the spec spells it. */
function queryGuid(query: Record<string, unknown>, name: string): ReadResult<string> {
  const value = query[name];
  if (value === undefined)
    return { ok: false, status: 400, error: `Query parameter ${name} is required: the GUID of the subscription.` };
  if (typeof value !== "string")
    return { ok: false, status: 400, error: `Query parameter ${name} must be given once.` };
  return checkValue(value, WireGuid, `Query parameter ${name}`);
}

/** The validation message of a Subscribe refused because the store holds `limit` subscriptions. */
function limitReached(limit: number, guid: string): WireValidationMessage {
  const template =
    "The instance already holds {0} webhook subscriptions, the most it allows: unsubscribe unused ones first.";
  return {
    IsError: true,
    MessageDescription: formatMessage(template, [limit]),
    Parameters: [limit],
    RelatedObjectGUID: guid,
    RelatedObjectType: WEBHOOK_SUBSCRIPTION_OBJECT_TYPE,
    MessageID: MessageId.SubscriptionLimitReached,
  };
}

function notFound(guid: string): Outcome {
  return errorOutcome(404, `No webhook subscription has GUID ${guid}.`);
}

const getAll: OperationDefinition = {
  method: "GET",
  handle: (store) => ({ status: 200, json: store.list() }),
};

const getOne: OperationDefinition = {
  method: "GET",
  handle(store, { query }) {
    const guid = queryGuid(query, "webhookSubscriptionGUID");
    if (!guid.ok) return errorOutcome(guid.status, guid.error);
    const subscription = store.get(guid.value);
    return subscription ? { status: 200, json: subscription } : notFound(guid.value);
  },
};

const subscribe: OperationDefinition = {
  method: "POST",
  async handle(store, { body, contentType, legacy }) {
    const request = readJsonRequest(body, contentType, WireSubscribeRequest);
    if (!request.ok) return errorOutcome(request.status, request.error);
    // Allocated before validation: a failed subscribe names it in its messages (spec), unsaved.
    const guid = randomUUID();
    const messages = validateSubscription(request.value, guid);
    if (store.isFull()) messages.push(limitReached(store.maxSubscriptions, guid));
    if (messages.length > 0) return { status: 400, json: envelope(null, messages) };
    const subscription = buildSubscription(request.value, guid, randomUUID());
    if (targetsClosedPacket(request.value, (id) => store.isClosed(id))) {
      // Spec: the legacy API claims success but creates nothing; the configuration API refuses.
      return legacy ? { status: 200, json: envelope(subscription) } : { status: 400, text: CLOSED_PACKET_TEXT };
    }
    await store.put(subscription);
    return { status: 200, json: envelope(subscription) };
  },
};

const update: OperationDefinition = {
  method: "POST",
  async handle(store, { body, contentType }) {
    const request = readJsonRequest(body, contentType, WireUpdateRequest);
    if (!request.ok) return errorOutcome(request.status, request.error);
    const existing = store.get(request.value.GUID);
    if (!existing) return notFound(request.value.GUID);
    const messages = validateSubscription(request.value, existing.GUID);
    if (messages.length > 0) return { status: 400, json: envelope(null, messages) };
    if (targetsClosedPacket(request.value, (id) => store.isClosed(id)))
      return { status: 400, text: CLOSED_PACKET_TEXT };
    // Update replaces every field but the identity: GUID and Signature stay (spec).
    const subscription = buildSubscription(request.value, existing.GUID, existing.Signature);
    await store.put(subscription);
    return { status: 200, json: envelope(subscription) };
  },
};

const unsubscribe: OperationDefinition = {
  method: "POST",
  async handle(store, { query }) {
    const guid = queryGuid(query, "webHookSubscriptionGUID");
    if (!guid.ok) return errorOutcome(guid.status, guid.error);
    return (await store.remove(guid.value)) ? { status: 200, json: envelope(true) } : notFound(guid.value);
  },
};

/** Every operation by the name in its URL path. */
export const OPERATION_DEFINITIONS: Readonly<Record<Operation, OperationDefinition>> = {
  GetAllWebhookSubscriptions: getAll,
  GetWebhookSubscription: getOne,
  SubscribeToWebhook: subscribe,
  UpdateWebhookSubscription: update,
  Unsubscribe: unsubscribe,
};

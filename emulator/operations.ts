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
  type Operation,
  type WireEnvelope,
  type WireValidationMessage,
} from "../provider/wire";
import { notFound, type Dialect } from "./dialect";
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
  /** How to read the body and shape the answer. */
  readonly dialect: Dialect;
  /** The caller's account (see TokenRegistry.account): with a per-account dialect, it sees only its own. */
  readonly account: string;
}

/** An operation: its HTTP method and what it does. */
export interface OperationDefinition {
  readonly method: "GET" | "POST";
  /** The query parameter naming the subscription, spelled as the spec spells it for this operation. */
  readonly guidParameter?: string;
  /** The request body the operation reads. */
  readonly body?: "subscribe" | "update";
  handle(store: Store, request: OperationRequest): Promise<Outcome> | Outcome;
}

/** The 400 of a request that broke validation rules: the spec's envelope, in every dialect. */
function refused(messages: WireEnvelope<unknown>["Messages"]): Outcome {
  return { status: 400, json: { Result: null, Messages: messages } };
}

/** The subscription `guid` when the caller may see it (per-account dialects hide the others'). */
export function visible(
  store: Store,
  { dialect, account }: Pick<OperationRequest, "dialect" | "account">,
  guid: string,
): StoredSubscription | undefined {
  const subscription = store.get(guid);
  return subscription && (!dialect.perAccount || store.isVisibleTo(guid, account)) ? subscription : undefined;
}

/** Reads a required GUID query parameter (also used by the simulate-event endpoint); the name is matched exactly as the spec spells it. */
export function queryGuid(query: Record<string, unknown>, name: string): ReadResult<string> {
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

/** GetWebhookSubscription's GUID parameter. */
const GET_GUID_PARAMETER = "webhookSubscriptionGUID";
/** Unsubscribe's GUID parameter (also the simulate-event endpoint's): note the capital H. */
export const UNSUBSCRIBE_GUID_PARAMETER = "webHookSubscriptionGUID";

const getAll: OperationDefinition = {
  method: "GET",
  handle(store, { dialect, account }) {
    const all = store.list();
    return dialect.list(dialect.perAccount ? all.filter((s) => store.isVisibleTo(s.GUID, account)) : all);
  },
};

const getOne: OperationDefinition = {
  method: "GET",
  guidParameter: GET_GUID_PARAMETER,
  handle(store, request) {
    const guid = queryGuid(request.query, GET_GUID_PARAMETER);
    if (!guid.ok) return errorOutcome(guid.status, guid.error);
    const subscription = visible(store, request, guid.value);
    return subscription ? request.dialect.one(subscription) : request.dialect.getNotFound(guid.value);
  },
};

const subscribe: OperationDefinition = {
  method: "POST",
  body: "subscribe",
  async handle(store, { body, contentType, legacy, dialect, account }) {
    const request = readJsonRequest(body, contentType, dialect.subscribeRequest);
    if (!request.ok) return errorOutcome(request.status, request.error);
    // Allocated before validation: a failed subscribe names it in its messages (spec), unsaved.
    const guid = randomUUID();
    const messages = validateSubscription(request.value, guid);
    if (store.isFull()) messages.push(limitReached(store.maxSubscriptions, guid));
    if (messages.length > 0) return refused(messages);
    const subscription = buildSubscription(request.value, guid, randomUUID());
    if (targetsClosedPacket(request.value, (id) => store.isClosed(id))) {
      // Spec: the legacy API claims success but creates nothing; the configuration API refuses.
      return legacy ? dialect.saved(subscription) : { status: 400, text: CLOSED_PACKET_TEXT };
    }
    await store.put(subscription, dialect.perAccount ? account : undefined);
    return dialect.saved(subscription);
  },
};

const update: OperationDefinition = {
  method: "POST",
  body: "update",
  async handle(store, operation) {
    const { body, contentType, dialect } = operation;
    const request = readJsonRequest(body, contentType, dialect.updateRequest);
    if (!request.ok) return errorOutcome(request.status, request.error);
    const existing = visible(store, operation, request.value.GUID);
    if (!existing) return notFound(request.value.GUID);
    const messages = validateSubscription(request.value, existing.GUID);
    if (messages.length > 0) return refused(messages);
    if (targetsClosedPacket(request.value, (id) => store.isClosed(id)))
      return { status: 400, text: CLOSED_PACKET_TEXT };
    // Update replaces every field but the identity: GUID and Signature stay (spec).
    const subscription = buildSubscription(request.value, existing.GUID, existing.Signature);
    await store.put(subscription);
    return dialect.saved(subscription);
  },
};

const unsubscribe: OperationDefinition = {
  method: "POST",
  guidParameter: UNSUBSCRIBE_GUID_PARAMETER,
  async handle(store, request) {
    const guid = queryGuid(request.query, UNSUBSCRIBE_GUID_PARAMETER);
    if (!guid.ok) return errorOutcome(guid.status, guid.error);
    if (!visible(store, request, guid.value)) return notFound(guid.value);
    await store.remove(guid.value);
    return request.dialect.unsubscribed();
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

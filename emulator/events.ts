/**
 * Admin-triggered events: which subscriptions an event reaches and the message each receives.
 * The spec does not show the message body; ours is documented in docs/emulator.md.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  isObjectScoped,
  normalizeGuid,
  reservedHeaderReason,
  WireGuid,
  WireWebhookRequest,
  webhookName,
} from "../provider/wire";
import { deliver, type DeliveryResult } from "./delivery";
import { withRetries } from "./deliveryRetry";
import type { StoredSubscription } from "./stateFile";
import type { Dispatcher } from "undici";

/** The body of `POST /_emulator/events`. ObjectGUID is required for the four object-scoped events. */
export const EventRequest = z
  .strictObject({ Webhook: WireWebhookRequest, ObjectGUID: WireGuid.nullable().optional() })
  .refine((event) => !isObjectScoped(event.Webhook) || event.ObjectGUID != null, {
    path: ["ObjectGUID"],
    message: "ObjectGUID is required for an object-scoped event (Webhook 0, 1, 2 or 4)",
  });
export type EventRequest = z.infer<typeof EventRequest>;

/** The JSON body POSTed to each subscriber. */
export interface EventMessage {
  Webhook: number;
  WebhookName: string;
  ObjectGUID: string | null;
  SubscriptionGUID: string;
  /** The same for every delivery of one event, so receivers can de-duplicate. */
  EventGUID: string;
  OccurredAt: string;
}

/** One line of the admin call's answer. */
export interface DeliveryReport extends DeliveryResult {
  SubscriptionGUID: string;
  SubscriberURL: string;
  /** How many times the message was sent (more than 1 only when failed deliveries are retried). */
  attempts: number;
}

/** How messages are sent: product word, transport, timeout, and retries of failed deliveries. */
export interface DeliverySettings {
  product: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Attempts after a failed one. @default 0 */
  retries?: number;
  /** How to wait between attempts. */
  sleep?: (ms: number) => Promise<void>;
  /** The emulator's own port, never a target (null before it listens). */
  ownPort?: number | null;
}

/**
 * Subscriptions an event reaches: object-scoped events those of the same Webhook whose filter
 * is the event's object (case-insensitively); type-scoped events every subscription of the Webhook.
 */
export function matchSubscriptions(
  subscriptions: readonly StoredSubscription[],
  event: EventRequest,
): StoredSubscription[] {
  const sameEvent = subscriptions.filter((subscription) => subscription.Webhook === event.Webhook);
  if (!isObjectScoped(event.Webhook)) return sameEvent;
  const object = normalizeGuid(event.ObjectGUID ?? "");
  return sameEvent.filter(
    (subscription) => subscription.FilterObjectGUID !== null && normalizeGuid(subscription.FilterObjectGUID) === object,
  );
}

/** The headers of one message, or why it is not sent. */
export type MessageHeaders =
  { readonly ok: true; readonly headers: Record<string, string> } | { readonly ok: false; readonly refused: string };

/**
 * Headers of one message: JSON, the signature, and the subscription's custom header when set.
 * A map without prototype, so any header name (`__proto__`, `constructor`) is an ordinary
 * key; a reserved name (Host, Content-Length, …, the signature header: `reservedHeaderReason`)
 * refuses the delivery, saying why, rather than being dropped or forging the signature.
 */
export function messageHeaders(subscription: StoredSubscription, product: string): MessageHeaders {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers["content-type"] = "application/json";
  headers[`x-${product.toLowerCase()}-signature`] = subscription.Signature;
  const custom = subscription.CustomHeader;
  if (custom === "") return { ok: true, headers };
  // Subscribe refuses these names; a state file may still hold one, so delivery refuses it too.
  const reason =
    reservedHeaderReason(custom) ??
    (Object.hasOwn(headers, custom.toLowerCase()) ? "the emulator sets it itself" : undefined);
  if (reason !== undefined) {
    return { ok: false, refused: `not delivered: the custom header ${JSON.stringify(custom)} is reserved: ${reason}` };
  }
  headers[custom] = subscription.CustomHeaderValue ?? "";
  return { ok: true, headers };
}

/** Delivers the event to every matching subscription at once; reports in subscription order. */
export async function deliverEvent(
  event: EventRequest,
  subscriptions: readonly StoredSubscription[],
  settings: DeliverySettings,
): Promise<DeliveryReport[]> {
  const eventGuid = randomUUID();
  const occurredAt = new Date().toISOString();
  return Promise.all(
    matchSubscriptions(subscriptions, event).map((subscription) =>
      deliverTo(subscription, event, { EventGUID: eventGuid, OccurredAt: occurredAt }, settings),
    ),
  );
}

/**
 * Sends one event's message to one subscription (with the settings' retries; every attempt
 * sends the same message). `identity` is the event's: the same for every subscription it reaches.
 */
export async function deliverTo(
  subscription: StoredSubscription,
  event: EventRequest,
  identity: Pick<EventMessage, "EventGUID" | "OccurredAt">,
  settings: DeliverySettings,
): Promise<DeliveryReport> {
  const message: EventMessage = {
    Webhook: event.Webhook,
    WebhookName: webhookName(event.Webhook) ?? String(event.Webhook),
    ObjectGUID: event.ObjectGUID == null ? null : normalizeGuid(event.ObjectGUID),
    SubscriptionGUID: subscription.GUID,
    ...identity,
  };
  const prepared = messageHeaders(subscription, settings.product);
  const body = JSON.stringify(message);
  const send = prepared.ok
    ? () =>
        deliver(
          subscription.SubscriberURL,
          prepared.headers,
          body,
          settings.dispatcher,
          settings.timeoutMs,
          settings.ownPort ?? null,
        )
    : () => Promise.resolve({ status: null, error: prepared.refused });
  const result = await withRetries(send, settings.retries ?? 0, settings.sleep ?? (() => Promise.resolve()));
  return { SubscriptionGUID: subscription.GUID, SubscriberURL: subscription.SubscriberURL, ...result };
}

/**
 * The six events a subscription can name, and how they are scoped.
 * The service speaks integers only; names exist for people and programs.
 */
export const Webhook = {
  PacketCreated: 0,
  PacketUpdated: 1,
  NewCommunication: 2,
  BusinessObjectCreated: 3,
  SpecificBusinessObjectUpdated: 4,
  BusinessObjectTypeUpdated: 5,
} as const;

/** A webhook event name, e.g. `"PacketCreated"`. */
export type WebhookName = keyof typeof Webhook;
/** A webhook event as the integer the service uses on the wire (0..5). */
export type WebhookId = (typeof Webhook)[WebhookName];

export const WEBHOOK_NAMES = Object.keys(Webhook) as WebhookName[];

const NAME_BY_ID = new Map<number, WebhookName>(WEBHOOK_NAMES.map((name) => [Webhook[name], name]));

/** The name of a known webhook integer, or undefined for a value this package does not know. */
export function webhookName(id: number): WebhookName | undefined {
  return NAME_BY_ID.get(id);
}

export function isWebhookId(value: unknown): value is WebhookId {
  return typeof value === "number" && NAME_BY_ID.has(value);
}

/** Events that fire for one object and therefore need a FilterObjectGUID (spec, SubscribeToWebhook). */
const OBJECT_SCOPED: ReadonlySet<number> = new Set([
  Webhook.PacketCreated,
  Webhook.PacketUpdated,
  Webhook.NewCommunication,
  Webhook.SpecificBusinessObjectUpdated,
]);

/** True for the four object-scoped events; false for the two type-scoped ones. */
export function isObjectScoped(webhook: number): boolean {
  return OBJECT_SCOPED.has(webhook);
}

/** Object type the service reports in validation messages about webhook subscriptions. */
export const WEBHOOK_SUBSCRIPTION_OBJECT_TYPE = 990;

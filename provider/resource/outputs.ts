/**
 * The state a WebhookSubscription keeps: the live subscription as the service holds it (so
 * "none" is null or "" as the service says it, never `undefined`, which the engine rejects),
 * plus what only this resource knows.
 */
import { webhookName, type Subscription } from "../wire";

export type SubscriptionOutputs = Subscription & {
  /** The event's name, for people reading state and diffs; null for a member newer than this package. */
  webhookName: string | null;
  /** The GUID this resource adopted instead of creating, or null. */
  adoptGuid: string | null;
};

/** Outputs from the live subscription. `signature` and `customHeaderValue` are secret (additionalSecretOutputs). */
export function outputsOf(live: Subscription, adoptGuid: string | null = null): SubscriptionOutputs {
  return { ...live, webhookName: webhookName(live.webhook) ?? null, adoptGuid };
}

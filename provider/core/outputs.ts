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
  /** The `rotation` label the subscription was created under, or null. */
  rotation: string | null;
  /**
   * The instance the subscription lives on: its normalised base URL. Absent in state written
   * before it was recorded, until the next refresh or update.
   */
  baseUrl: string;
};

/** What the outputs keep besides the live subscription: the resource's own arguments. */
export type ResourceOnly = Pick<SubscriptionOutputs, "adoptGuid" | "rotation">;

/**
 * Outputs from the live subscription. `signature` and `customHeaderValue` are secret (additionalSecretOutputs).
 * @param baseUrl the instance it was read from or written to.
 */
export function outputsOf(live: Subscription, own: ResourceOnly, baseUrl: string): SubscriptionOutputs {
  return { ...live, webhookName: webhookName(live.webhook) ?? null, ...own, baseUrl };
}

/** Outputs kept secret in state and in every display, whatever the program passed (both front doors). */
export const SECRET_OUTPUTS = ["signature", "customHeaderValue"] as const;

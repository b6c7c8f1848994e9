/**
 * The natural key of a subscription: what makes two subscriptions "the same" when the service's
 * GUID is unknown — after a Subscribe whose response was lost.
 */
import type { Subscription } from "../wire";

/** The key of a live or desired subscription ("none" as the service writes it, see `desiredOf`). */
export function naturalKey(
  s: Pick<Subscription, "webhook" | "filterObjectType" | "filterObjectGuid" | "subscriberUrl" | "customHeader">,
): string {
  return JSON.stringify([s.webhook, s.filterObjectType, s.filterObjectGuid, s.subscriberUrl, s.customHeader]);
}

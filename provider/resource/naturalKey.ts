/**
 * The natural key of a subscription: what makes two subscriptions "the same" when the service's
 * GUID is unknown — after a Subscribe whose response was lost.
 */
import type { Subscription, SubscriptionSpec } from "../wire";

export function naturalKey(
  s: Pick<Subscription, "webhook" | "filterObjectType" | "filterObjectGuid" | "subscriberUrl" | "customHeader">,
): string {
  return JSON.stringify([
    s.webhook,
    s.filterObjectType,
    s.filterObjectGuid ?? null,
    s.subscriberUrl,
    s.customHeader ?? "",
  ]);
}

/** The spec's key, with the service's normalisation of "none". */
export function specKey(spec: SubscriptionSpec): string {
  return naturalKey({
    webhook: spec.webhook,
    filterObjectType: spec.filterObjectType,
    filterObjectGuid: spec.filterObjectGuid ?? null,
    subscriberUrl: spec.subscriberUrl,
    customHeader: spec.customHeader ?? "",
  });
}

/**
 * A live subscription as a review may show it: every field but the secrets (the Signature, the
 * custom header value), of which only whether a header value is set is said.
 */
import { hasHeaderValue, webhookName, type Subscription } from "../../provider/wire";
import type { LiveSubscription } from "./model";

/** `s`, listed on `baseUrl`, without its secrets. */
export function describeLive(s: Subscription, baseUrl: string): LiveSubscription {
  return {
    guid: s.guid,
    baseUrl,
    webhook: s.webhook,
    webhookName: webhookName(s.webhook) ?? null,
    filterObjectType: s.filterObjectType,
    filterObjectGuid: s.filterObjectGuid,
    subscriberUrl: s.subscriberUrl,
    customHeader: s.customHeader,
    hasCustomHeaderValue: hasHeaderValue(s),
  };
}

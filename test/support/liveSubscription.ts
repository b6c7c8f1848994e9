/** A live subscription as the review describes it (LiveSubscription), for the writers' tests. */
import type { LiveSubscription } from "../../drift";

/** A type-scoped BusinessObjectCreated on orders.example.com with no header, unless `fields` say. */
export function liveSubscription(fields: Partial<LiveSubscription> = {}): LiveSubscription {
  return {
    guid: "3f2a9c1d-0000-4000-8000-000000000001",
    baseUrl: "http://127.0.0.1:8080",
    webhook: 3,
    webhookName: "BusinessObjectCreated",
    filterObjectType: 2,
    filterObjectGuid: null,
    subscriberUrl: "https://orders.example.com/hooks",
    customHeader: "",
    hasCustomHeaderValue: false,
    ...fields,
  };
}

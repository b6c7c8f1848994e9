/**
 * Basic: one subscription per kind of scope. Object-scoped events name the object they watch;
 * type-scoped events fire for every object of a type.
 */
import * as pulumi from "@pulumi/pulumi";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config();
const hooks = config.get("hooksUrl") ?? "https://hooks.example.com";
const packet = config.get("packetGuid") ?? "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";

/** A packet's creation, with a shared secret in a custom header. */
const created = new WebhookSubscription("packet-created", {
  webhook: Webhook.PacketCreated,
  filterObjectGuid: packet,
  filterObjectType: 2,
  subscriberUrl: `${hooks}/packets/created`,
  customHeader: "X Api Key",
  customHeaderValue: config.getSecret("apiKey") ?? pulumi.secret("change-me"),
});

/** The same packet's updates, by event name. */
const updated = new WebhookSubscription("packet-updated", {
  webhook: "PacketUpdated",
  filterObjectGuid: packet,
  filterObjectType: 2,
  subscriberUrl: `${hooks}/packets/updated`,
});

/** Every business object created, whatever the object: type-scoped, so no filterObjectGuid. */
const businessObjects = new WebhookSubscription("business-objects-created", {
  webhook: Webhook.BusinessObjectCreated,
  filterObjectType: 7,
  subscriberUrl: `${hooks}/business-objects`,
});

/** A URL that depends on another subscription's output: unknown during the first preview. */
const audit = new WebhookSubscription("business-object-type-updated", {
  webhook: Webhook.BusinessObjectTypeUpdated,
  filterObjectType: 7,
  subscriberUrl: pulumi.interpolate`${hooks}/audit?after=${businessObjects.guid}`,
});

export const guids = {
  created: created.guid,
  updated: updated.guid,
  businessObjects: businessObjects.guid,
  audit: audit.guid,
};
export const createdSignature = created.signature;

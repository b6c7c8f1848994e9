/** Webhook subscriptions through the native provider: the same two as examples/yaml, and one read back. */
import * as pulumi from "@pulumi/pulumi";
import * as webhooks from "pulumi-webhook-subscriptions/native";

// Object-scoped: fires for one packet; its custom header value is a secret.
const packetCreated = new webhooks.WebhookSubscription("packetCreated", {
  webhook: webhooks.Webhook.PacketCreated,
  filterObjectType: 2,
  filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
  subscriberUrl: "https://hooks.example.com/typescript-native/packets",
  customHeader: "X-Api-Key",
  customHeaderValue: pulumi.secret("change-me"),
});

// Type-scoped: fires for every new object of type 2.
const objectCreated = new webhooks.WebhookSubscription("objectCreated", {
  webhook: webhooks.Webhook.BusinessObjectCreated,
  filterObjectType: 2,
  subscriberUrl: "https://hooks.example.com/typescript-native/objects",
});

// Read back through the provider's function (the instance as it is now).
const objectCreatedLive = webhooks.getWebhookSubscriptionOutput({ guid: objectCreated.guid });

export const packetCreatedGuid = packetCreated.guid;
export const packetCreatedSignature = packetCreated.signature;
export const objectCreatedGuid = objectCreated.guid;
export const objectCreatedEvent = objectCreatedLive.webhookName;
// Plain: the lookup returns no secret unless asked (`includeSecrets: true`).
export const objectCreatedUrl = objectCreatedLive.subscriberUrl;

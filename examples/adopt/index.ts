/**
 * Adopt: `pulumi import` cannot work for dynamic providers, so a subscription made elsewhere is
 * adopted with `adoptGuid`: the provider reads it, brings it to the declared state with Update
 * (keeping its GUID and Signature) and manages it from then on. `npx webhook-subscriptions drift` lists unmanaged
 * subscriptions with a ready-made snippet like this one.
 */
import * as pulumi from "@pulumi/pulumi";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config();

const adopted = new WebhookSubscription("catalogue", {
  adoptGuid: config.require("guid"),
  webhook: Webhook.BusinessObjectCreated,
  filterObjectType: 7,
  subscriberUrl: "https://hooks.example.com/catalogue",
});

export const guid = adopted.guid;
/** Unchanged by adoption: receivers keep working. */
export const signature = adopted.signature;

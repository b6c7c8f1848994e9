/**
 * Legacy: an instance that only offers the 2024.1 API. There is no Update, so changing any
 * field replaces the subscription (create-before-delete: the new Signature works before the old
 * subscription goes). Refresh cannot see drift there: the provider warns instead.
 */
import * as pulumi from "@pulumi/pulumi";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config();
/** Bump the path (`pulumi config set path v2`) to see a replacement. */
const path = config.get("path") ?? "v1";

const sub = new WebhookSubscription("legacy-packet-created", {
  webhook: Webhook.PacketCreated,
  filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
  filterObjectType: 2,
  subscriberUrl: `https://hooks.example.com/legacy/${path}`,
});

export const guid = sub.guid;
export const signature = sub.signature;

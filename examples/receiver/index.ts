/**
 * A subscription for the receiver in server.ts: PacketCreated messages for one packet are
 * POSTed to `receiver:url`. The Signature the service generates is exported as the secret
 * output `signature`; hand it to the receiver with
 *   pulumi stack output signature --show-secrets
 *
 * Stack config (namespace `receiver`):
 *   url          the receiver's URL (required), e.g. http://127.0.0.1:3000/hooks
 *   packetGuid   GUID of the packet to watch (required)
 *   objectType   the service object type to filter by (default 2)
 *   headerValue  (secret) when set, every message also carries X-Receiver-Key with this value
 * Connection: webhooks:baseUrl / WEBHOOKS_BASE_URL and webhooks:token / WEBHOOKS_TOKEN.
 */
import * as pulumi from "@pulumi/pulumi";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config("receiver");
const headerValue = config.getSecret("headerValue");

const subscription = new WebhookSubscription("receiver", {
  webhook: Webhook.PacketCreated,
  filterObjectType: config.getNumber("objectType") ?? 2,
  filterObjectGuid: config.require("packetGuid"),
  subscriberUrl: config.require("url"),
  // Saved (and sent) as "X-Receiver-Key": the service turns spaces into hyphens.
  ...(headerValue === undefined ? {} : { customHeader: "X Receiver Key", customHeaderValue: headerValue }),
});

/** The subscription's GUID, as the service allocated it. */
export const guid = subscription.guid;
/** The value of x-<product>-signature on every message. Already secret in state and display. */
export const signature = subscription.signature;
/** The custom header's name as sent ("" when none), for the receiver's `customHeader.name`. */
export const customHeader = subscription.customHeader;

/**
 * The root program: the subscriptions a platform team declares. `npm start` runs it against the
 * embedded emulator; point `webhooks:baseUrl` at a real instance to run it for real.
 */
import * as pulumi from "@pulumi/pulumi";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config();
/** The shared secret our receivers expect in the X-Api-Key header (set once per stack, as a secret). */
const receiverApiKey = config.requireSecret("receiverApiKey");
const hooks = config.get("hooksBaseUrl") ?? "https://hooks.example.com";

/** The order-intake packet: its creation and every update go to the orders service. */
const ORDER_INTAKE_PACKET = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
/** The support mailbox whose new communications the helpdesk receives. */
const SUPPORT_MAILBOX = "0d9e8f7a-6b5c-4d3e-9f21-0a1b2c3d4e5f";
/** Service object type of business objects (type-scoped subscriptions filter by type only). */
const BUSINESS_OBJECT_TYPE = 7;

const ordersCreated = new WebhookSubscription("orders-packet-created", {
  webhook: Webhook.PacketCreated,
  filterObjectGuid: ORDER_INTAKE_PACKET,
  filterObjectType: 2,
  subscriberUrl: `${hooks}/orders/created`,
  customHeader: "X Api Key",
  customHeaderValue: receiverApiKey,
});

const ordersUpdated = new WebhookSubscription("orders-packet-updated", {
  webhook: "PacketUpdated",
  filterObjectGuid: ORDER_INTAKE_PACKET,
  filterObjectType: 2,
  subscriberUrl: `${hooks}/orders/updated`,
  customHeader: "X Api Key",
  customHeaderValue: receiverApiKey,
});

const helpdesk = new WebhookSubscription("helpdesk-new-communication", {
  webhook: Webhook.NewCommunication,
  filterObjectGuid: SUPPORT_MAILBOX,
  filterObjectType: 3,
  subscriberUrl: `${hooks}/helpdesk`,
});

const catalogue = new WebhookSubscription("catalogue-business-object-created", {
  webhook: Webhook.BusinessObjectCreated,
  filterObjectType: BUSINESS_OBJECT_TYPE,
  subscriberUrl: `${hooks}/catalogue/created`,
});

export const subscriptions = {
  ordersCreated: ordersCreated.guid,
  ordersUpdated: ordersUpdated.guid,
  helpdesk: helpdesk.guid,
  catalogue: catalogue.guid,
};
/** Hand this to the orders receiver (`pulumi stack output ordersSignature --show-secrets`). */
export const ordersSignature = ordersCreated.signature;

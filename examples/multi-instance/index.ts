/**
 * Multi-instance: one program, two instances of the service. "test" is the default provider
 * (stack config `webhooks:*` or `WEBHOOKS_*`); "production" is an explicit `Provider` whose
 * token CI provides in an environment variable, so it is never stored in state.
 */
import * as pulumi from "@pulumi/pulumi";
import { Provider, Webhook, WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";

const config = new pulumi.Config();
const hooks = config.get("hooksUrl") ?? "https://hooks.example.com";

/** Production: its own base URL, token read at run time from PROD_WEBHOOKS_TOKEN. */
const production = new Provider("production", {
  baseUrl: config.require("productionBaseUrl"),
  tokenFromEnv: "PROD_WEBHOOKS_TOKEN",
  // Several stacks share production: never take over a subscription another one manages.
  adoptIdentical: false,
});

/** The same subscriptions on both instances; only where they are delivered differs. */
function subscriptions(env: "test" | "production", opts: pulumi.CustomResourceOptions): WebhookSubscription[] {
  const declared: Record<string, WebhookSubscriptionArgs> = {
    "business-objects-created": {
      webhook: Webhook.BusinessObjectCreated,
      filterObjectType: 7,
      subscriberUrl: `${hooks}/${env}/business-objects`,
    },
    "object-types-updated": {
      webhook: Webhook.BusinessObjectTypeUpdated,
      filterObjectType: 7,
      subscriberUrl: `${hooks}/${env}/object-types`,
    },
  };
  return Object.entries(declared).map(([name, args]) => new WebhookSubscription(`${env}-${name}`, args, opts));
}

const onTest = subscriptions("test", {});
const onProduction = subscriptions("production", { provider: production });

export const test = onTest.map((s) => ({ guid: s.guid, instance: s.baseUrl }));
export const prod = onProduction.map((s) => ({ guid: s.guid, instance: s.baseUrl }));

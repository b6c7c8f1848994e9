/**
 * pulumi-webhook-subscriptions: manage webhook subscriptions as code.
 *
 * - `WebhookSubscription`, the Pulumi resource, and `Webhook`, the six events;
 * - `Provider`, one instance of the service (for several in one program), and `listWebhookSubscriptions`;
 * - `WebhookSubscriptionClient` and its typed errors, for scripts that call the API directly;
 * - `verifySignature`, for receivers of the messages.
 */
export {
  WebhookSubscription,
  WEBHOOK_SUBSCRIPTION_TYPE,
  type WebhookSubscriptionArgs,
  Provider,
  type ProviderArgs,
  listWebhookSubscriptions,
  type ListWebhookSubscriptionsOptions,
  type ListedSubscription,
} from "./provider/resource";
export {
  Webhook,
  type WebhookId,
  type WebhookName,
  type Subscription,
  type SubscriptionSpec,
  type ApiVersion,
} from "./provider/wire";
export * from "./provider/client";
export * from "./provider/receiver";

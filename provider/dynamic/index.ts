/** The Pulumi resource and its settings; the runtime is loaded by the engine, not imported here. */
export { WebhookSubscription, WEBHOOK_SUBSCRIPTION_TYPE, type WebhookSubscriptionArgs } from "./webhookSubscription";
export {
  SETTING_SOURCES,
  readSettings,
  type ConnectionSettings,
  type ConfigSource,
  type ProviderSettings,
} from "../core/settings";
export { checkInputs, type CheckFailure } from "../core/inputs";
export { Provider, type ProviderArgs } from "./provider";
export { listWebhookSubscriptions, type ListWebhookSubscriptionsOptions, type ListedSubscription } from "./list";

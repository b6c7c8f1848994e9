/**
 * A WebhookSubscription as seen from outside the provider: what its state holds and where the
 * default provider finds its instance. The drift review (and anything else that reads stacks)
 * builds on this and on the client, never on the provider's workings.
 */
export { WEBHOOK_SUBSCRIPTION_TYPE } from "./dynamic/webhookSubscription";
export { SECRET_OUTPUTS } from "./core/outputs";
export type { SubscriptionOutputs } from "./core/outputs";
/** The fields the service stores (compared by diff and by the drift review). */
export { SUBSCRIPTION_FIELDS, type SubscriptionField } from "./core/diff";
/** Provider settings: the default provider's (stack config, then the environment) and explicit Providers'. */
export {
  SETTING_SOURCES,
  PROVIDER_KEYS,
  readSettings,
  clientSettings,
  type ConfigSource,
  type ConnectionSettings,
} from "./core/settings";

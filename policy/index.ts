/**
 * `pulumi-webhook-subscriptions/policy`: `WebhookGuard`, the CrossGuard policy pack for webhook
 * subscriptions, and the rules it (and the drift review's `--policy`) applies. Needs
 * `@pulumi/policy` installed beside this package (a policy pack project has it).
 */
export { WebhookGuard, DEFAULT_PACK_NAME } from "./webhookGuard";
export {
  RULES,
  ENFORCEMENT_LEVELS,
  type EnforcementLevel,
  type Rule,
  type SubscriptionFields,
  type Finding,
} from "./rules";
export { parsePolicySettings, PolicySettingsError, type PolicySettings, type RuleSettings } from "./settings";

/**
 * `pulumi-webhook-subscriptions/policy`: `WebhookGuard`, the CrossGuard policy pack for webhook
 * subscriptions (docs/policy.md), and its settings' checker. Needs `@pulumi/policy` installed
 * beside this package (a policy pack project has it). The types here stay plain (no zod): a pack
 * may be type-checked by the TypeScript that `@pulumi/pulumi` vendors.
 */
export { WebhookGuard, DEFAULT_PACK_NAME } from "./webhookGuard";
export type { EnforcementLevel } from "./rules";
export { parsePolicySettings, PolicySettingsError, type PolicySettings, type RuleSettings } from "./settings";

/**
 * `WebhookGuard`: the CrossGuard policy pack for webhook subscriptions, used as `@pulumi/awsguard`'s
 * `AwsGuard` is. A user's policy pack project holds one line:
 *
 * ```ts
 * new WebhookGuard({ allowedSubscriberHosts: ["hooks.example.com", "*.example.org"], enforcementLevel: "mandatory" });
 * ```
 *
 * Each rule of rules.ts becomes one policy, over the dynamic resource and the native
 * `webhooks:index:WebhookSubscription` alike; `--policy-pack-config` configures each by name.
 */
import type { PolicyPackConfig, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { isWebhookSubscriptionType } from "../provider/model";
import { apiVersionOf, fieldsOfInputs, type ProviderView } from "./fields";
import { loadPulumiPolicy } from "./pulumiPolicy";
import type { CollectionRule, Rule, SubscriptionRule } from "./rules";
import { RULES } from "./rules";
import { configSchemaOf, parsePolicySettings, resolveRules, ruleOptions, type PolicySettings } from "./settings";

/** `@pulumi/policy`'s pack, loaded so that its absence says which package to install (pulumiPolicy.ts). */
const { PolicyPack } = loadPulumiPolicy();

/** The pack's name when none is given: what `pulumi preview` prints beside each violation. */
export const DEFAULT_PACK_NAME = "webhook-guard";

/** How a policy names a resource in its messages. */
const labelOf = (name: string) => `WebhookSubscription "${name}"`;

interface ResourceView {
  readonly type: string;
  readonly name: string;
  readonly props: Record<string, unknown>;
  readonly provider?: ProviderView;
}

const fieldsOf = (r: ResourceView) => fieldsOfInputs(r.props, labelOf(r.name), apiVersionOf(r.provider));

/** What every policy declares: its name, description, default level and config schema. */
function declared(rule: Rule) {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.defaultLevel,
    configSchema: configSchemaOf(rule),
  };
}

function resourcePolicy(rule: SubscriptionRule): ResourceValidationPolicy {
  return {
    ...declared(rule),
    validateResource(args, reportViolation) {
      if (!isWebhookSubscriptionType(args.type)) return;
      const options = ruleOptions(rule, args.getConfig());
      const fields = fieldsOf(args);
      for (const finding of rule.validate(fields, options)) reportViolation(`${fields.label}: ${finding.message}`);
    },
  };
}

function stackPolicy(rule: CollectionRule): StackValidationPolicy {
  return {
    ...declared(rule),
    validateStack(args, reportViolation) {
      const options = ruleOptions(rule, args.getConfig());
      const subscriptions = args.resources.filter((r) => isWebhookSubscriptionType(r.type));
      const fields = subscriptions.map(fieldsOf);
      for (const { index, finding } of rule.validateAll(fields, options))
        reportViolation(`${fields[index]!.label}: ${finding.message}`, subscriptions[index]!.urn);
    },
  };
}

/** The policies, one per rule, at their default levels. */
export function webhookPolicies(): (ResourceValidationPolicy | StackValidationPolicy)[] {
  return RULES.map((rule) => (rule.kind === "subscription" ? resourcePolicy(rule) : stackPolicy(rule)));
}

/** The settings as the pack's initial config: every rule by name, with its level and options. */
export function initialConfigOf(settings: PolicySettings): PolicyPackConfig {
  return Object.fromEntries(
    resolveRules(settings).map(({ rule, level, options }) => [rule.name, { enforcementLevel: level, ...options }]),
  );
}

/**
 * The policy pack for webhook subscriptions. Settings (docs/policy.md): `allowedSubscriberHosts`,
 * `enforcementLevel` for the rules on by default, and each rule by name — its level, or an object
 * of its level and options. Bad settings throw before the pack starts, naming each key and value.
 */
export class WebhookGuard extends PolicyPack {
  constructor(settings?: PolicySettings);
  constructor(name: string, settings?: PolicySettings);
  constructor(nameOrSettings?: string | PolicySettings, settings?: PolicySettings) {
    const [name, raw] =
      typeof nameOrSettings === "string" ? [nameOrSettings, settings] : [DEFAULT_PACK_NAME, nameOrSettings];
    const checked = parsePolicySettings(raw ?? {}, "WebhookGuard settings");
    super(name, { policies: webhookPolicies() }, initialConfigOf(checked));
  }
}

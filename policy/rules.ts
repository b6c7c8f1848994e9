/**
 * The policy rules for webhook subscriptions, one definition each: a name, a description, a
 * default enforcement level, the rule's own options (a zod schema) and a pure validator over a
 * subscription's fields. The CrossGuard pack (webhookGuard.ts) runs them on the resources of a
 * preview, the drift review (drift/review/policy.ts) on the live subscriptions of an instance.
 *
 * A validator answers with findings: the field, and a message that shows the bad value (never
 * a secret's: only whether `customHeaderValue` is set is known here) and what is allowed.
 * Callers put the subscription's name in front.
 */
import { z } from "zod";
import { isObjectScoped, webhookName, LEGACY_API_VERSION, CONFIGURATION_API_VERSIONS } from "../provider/wire";
import { HOST_PATTERN, hostAllowed, hostOf } from "./hostPattern";

/** How hard a rule is enforced, as `@pulumi/policy` names it. */
export const ENFORCEMENT_LEVELS = ["advisory", "mandatory", "remediate", "disabled"] as const;
export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[number];

/**
 * A subscription's fields as the rules read them, from a resource's inputs or from the instance.
 * `undefined` means not known yet (a preview's unknown value): rules needing it stay silent.
 * `null` (and `""` for the header) means not set.
 */
export interface SubscriptionFields {
  /** How messages name the subscription: `WebhookSubscription "orders"`, `subscription 6f1c…`. */
  readonly label: string;
  readonly webhook?: number;
  readonly filterObjectType?: number;
  readonly filterObjectGuid?: string | null;
  readonly subscriberUrl?: string;
  readonly customHeader?: string;
  /** Whether a header value is set; the value itself is a secret and never reaches the rules. */
  readonly hasCustomHeaderValue?: boolean;
  /** The api-version of the provider that reaches the subscription's instance. */
  readonly apiVersion?: string;
}

/** One thing a rule found wrong with one subscription. */
export interface Finding {
  /** The field to change, e.g. `subscriberUrl`. */
  readonly field: string;
  /** Names the field, shows the bad value (never a secret's), and says what is allowed. */
  readonly message: string;
}

interface RuleBase<Options extends z.ZodObject> {
  /** The policy's name in the pack, in `--policy-pack-config` and in drift reports. */
  readonly name: string;
  /** One sentence: what the rule asks of every subscription. */
  readonly description: string;
  readonly defaultLevel: EnforcementLevel;
  /** The rule's own settings besides `enforcementLevel` (all optional). */
  readonly options: Options;
}

/** A rule about one subscription at a time. */
export interface SubscriptionRule<Options extends z.ZodObject = z.ZodObject> extends RuleBase<Options> {
  readonly kind: "subscription";
  validate(fields: SubscriptionFields, options: z.output<Options>): Finding[];
}

/** A rule about the subscriptions of a stack (or of an instance) together. */
export interface CollectionRule<Options extends z.ZodObject = z.ZodObject> extends RuleBase<Options> {
  readonly kind: "collection";
  /** Findings by index into `all`. */
  validateAll(all: readonly SubscriptionFields[], options: z.output<Options>): { index: number; finding: Finding }[];
}

export type Rule = SubscriptionRule | CollectionRule;

const show = (value: unknown) => JSON.stringify(value);
const list = (values: readonly string[]) => values.map(show).join(", ");

/** A host pattern, as `allowedSubscriberHosts` takes it. */
const hostPatternError = (issue: { input?: unknown }) =>
  `must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: ${show(issue.input)}`;
export const HostPatternSchema = z.string({ error: hostPatternError }).regex(HOST_PATTERN, { error: hostPatternError });

const hostOptions = z.strictObject({
  allowedSubscriberHosts: z
    .array(HostPatternSchema, {
      error: (issue) =>
        `must be a list of host patterns, e.g. ["hooks.example.com", "*.example.org"], got: ${show(issue.input)}`,
    })
    .optional(),
});

export const subscriberHostAllowed: SubscriptionRule<typeof hostOptions> = {
  kind: "subscription",
  name: "subscriber-host-allowed",
  description:
    "Messages go only to approved receivers: the subscriberUrl's host must match allowedSubscriberHosts (exact names, or *.domain for its subdomains).",
  defaultLevel: "mandatory",
  options: hostOptions,
  validate({ subscriberUrl }, { allowedSubscriberHosts }) {
    if (subscriberUrl === undefined || allowedSubscriberHosts === undefined) return [];
    const host = hostOf(subscriberUrl);
    if (host !== undefined && hostAllowed(host, allowedSubscriberHosts)) return [];
    const allowed = allowedSubscriberHosts.length > 0 ? list(allowedSubscriberHosts) : "none";
    return [
      {
        field: "subscriberUrl",
        message: `subscriberUrl ${show(subscriberUrl)} sends to host ${show(host ?? subscriberUrl)}, which is not allowed (allowedSubscriberHosts: ${allowed}). Point subscriberUrl at an allowed host, or add the host to allowedSubscriberHosts.`,
      },
    ];
  },
};

export const subscriberUrlHttps: SubscriptionRule = {
  kind: "subscription",
  name: "subscriber-url-https",
  description: "Messages and their custom header travel encrypted: the subscriberUrl must use https.",
  defaultLevel: "mandatory",
  options: z.strictObject({}),
  validate({ subscriberUrl }) {
    if (subscriberUrl === undefined || /^https:/i.test(subscriberUrl)) return [];
    return [
      {
        field: "subscriberUrl",
        message: `subscriberUrl ${show(subscriberUrl)} does not use https (allowed: https:// URLs only). Serve the receiver over TLS and change the URL to https://.`,
      },
    ];
  },
};

const headerOptions = z.strictObject({
  customHeader: z
    .string({ error: (issue) => `must be a header name such as "X-Api-Key", got: ${show(issue.input)}` })
    .min(1, { error: 'must be a header name such as "X-Api-Key", got: ""' })
    .optional(),
});

export const customHeaderRequired: SubscriptionRule<typeof headerOptions> = {
  kind: "subscription",
  name: "custom-header-required",
  description:
    "Receivers can authenticate the sender: every subscription sets customHeader (the name given, if one is configured) and customHeaderValue.",
  defaultLevel: "disabled",
  options: headerOptions,
  validate({ customHeader, hasCustomHeaderValue }, { customHeader: required }) {
    if (customHeader === undefined) return [];
    const name = required ?? "X-Api-Key";
    if (customHeader === "")
      return [
        {
          field: "customHeader",
          message: `customHeader is not set (allowed: ${required === undefined ? "any header name" : show(required)}). Set customHeader (e.g. ${show(name)}) and customHeaderValue, a secret the receiver checks.`,
        },
      ];
    if (required !== undefined && customHeader.toLowerCase() !== required.toLowerCase())
      return [
        {
          field: "customHeader",
          message: `customHeader ${show(customHeader)} is not the required header (allowed: ${show(required)}). Rename it to ${show(required)}.`,
        },
      ];
    if (hasCustomHeaderValue === false)
      return [
        {
          field: "customHeaderValue",
          message: `customHeaderValue is not set for customHeader ${show(customHeader)} (allowed: any non-empty secret). Set customHeaderValue to the secret the receiver checks.`,
        },
      ];
    return [];
  },
};

export const objectScopeRequired: SubscriptionRule = {
  kind: "subscription",
  name: "object-scope-required",
  description:
    "No subscription without a scope: the object-scoped events (PacketCreated, PacketUpdated, NewCommunication, SpecificBusinessObjectUpdated) must name their object in filterObjectGuid.",
  defaultLevel: "mandatory",
  options: z.strictObject({}),
  validate({ webhook, filterObjectGuid }) {
    if (webhook === undefined || !isObjectScoped(webhook) || filterObjectGuid !== null) return [];
    return [
      {
        field: "filterObjectGuid",
        message: `filterObjectGuid is not set for ${webhookName(webhook)} (webhook ${webhook}), an object-scoped event (allowed: the GUID of one object). Set filterObjectGuid to the object the subscription is about.`,
      },
    ];
  },
};

/** What makes two subscriptions deliver the same message to the same receiver. */
function deliveryKey(s: SubscriptionFields): string | undefined {
  const { webhook, filterObjectType, filterObjectGuid, subscriberUrl } = s;
  if ([webhook, filterObjectType, filterObjectGuid, subscriberUrl].includes(undefined)) return undefined;
  return JSON.stringify([webhook, filterObjectType, filterObjectGuid?.toLowerCase() ?? null, subscriberUrl]);
}

export const noDuplicateSubscriptions: CollectionRule = {
  kind: "collection",
  name: "no-duplicate-subscriptions",
  description:
    "Each message reaches a receiver once: no two subscriptions share webhook, filterObjectType, filterObjectGuid and subscriberUrl.",
  defaultLevel: "mandatory",
  options: z.strictObject({}),
  validateAll(all) {
    const first = new Map<string, number>();
    const found: { index: number; finding: Finding }[] = [];
    all.forEach((s, index) => {
      const key = deliveryKey(s);
      if (key === undefined) return;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else
        found.push({
          index,
          finding: {
            field: "subscriberUrl",
            message: `subscriberUrl ${show(s.subscriberUrl)} already receives ${webhookName(s.webhook!) ?? `webhook ${s.webhook}`} for the same object through ${all[earlier]!.label}, so every message would arrive twice (allowed: one subscription per webhook, object and URL). Remove one of them.`,
          },
        });
    });
    return found;
  },
};

export const noLegacyApiVersion: SubscriptionRule = {
  kind: "subscription",
  name: "no-legacy-api-version",
  description: `Subscriptions stay visible: the legacy API ${LEGACY_API_VERSION} has no Get and no GetAll, so refresh and the drift review cannot see what it creates.`,
  defaultLevel: "advisory",
  options: z.strictObject({}),
  validate({ apiVersion }) {
    if (apiVersion !== LEGACY_API_VERSION) return [];
    return [
      {
        field: "apiVersion",
        message: `apiVersion ${show(apiVersion)} is the legacy API: refresh and the drift review cannot read what it creates (allowed: ${list(CONFIGURATION_API_VERSIONS)}). Set the provider's apiVersion (webhooks:apiVersion) to "3" if the instance offers the configuration API.`,
      },
    ];
  },
};

/** Every rule, in the order reports list them. */
export const RULES: readonly Rule[] = [
  subscriberHostAllowed,
  subscriberUrlHttps,
  customHeaderRequired,
  objectScopeRequired,
  noDuplicateSubscriptions,
  noLegacyApiVersion,
];

/** The rule names: the keys of the settings and of `--policy-pack-config`. */
export const RULE_NAMES = RULES.map((r) => r.name);

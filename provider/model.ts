/**
 * A WebhookSubscription as seen from outside the provider: what its state holds and where the
 * default provider finds its instance. The drift review (and anything else that reads stacks)
 * builds on this and on the client, never on the provider's workings. It is the one place that
 * knows both front doors' type tokens: the dynamic provider's and the native plugin's.
 */
import { WEBHOOK_SUBSCRIPTION_TYPE } from "./dynamic/webhookSubscription";
import { desiredOf, type SubscriptionInputs } from "./core/inputs";
import { naturalKey } from "./core/naturalKey";
import { diffSubscription, SUBSCRIPTION_FIELDS, type SubscriptionField } from "./core/diff";
import { PROVIDER_KEYS, type ConfigSource } from "./core/settings";
import { PROVIDER_TOKEN, RESOURCE_TOKEN } from "./native/tokens";
import { explicitProviderName, nativeConfigSource } from "./native/providerConfig";

export { WEBHOOK_SUBSCRIPTION_TYPE };
/** The native plugin's types: its resource (`webhooks:index:WebhookSubscription`) and its providers. */
export { RESOURCE_TOKEN as NATIVE_WEBHOOK_SUBSCRIPTION_TYPE, PROVIDER_TOKEN as NATIVE_PROVIDER_TYPE };
export { SECRET_OUTPUTS } from "./core/outputs";
/** The engine's placeholder for a value not known yet (a preview's inputs, a policy's view of them). */
export { UNKNOWN } from "./core/inputs";
export type { SubscriptionOutputs } from "./core/outputs";
/** The fields the service stores (compared by diff and by the drift review). */
export { SUBSCRIPTION_FIELDS, type SubscriptionField } from "./core/diff";

/**
 * The stored fields whose declared value (a WebhookSubscription's checked inputs, as a preview's
 * step records them) differs from a subscription's outputs, as the provider's own diff finds them.
 * For a diff whose provider named no fields (the dynamic provider's host reports none).
 */
export function changedFields(
  outputs: Readonly<Record<string, unknown>>,
  inputs: Readonly<Record<string, unknown>>,
): SubscriptionField[] {
  const stored: ReadonlySet<string> = new Set(SUBSCRIPTION_FIELDS);
  return diffSubscription(outputs, inputs as Partial<SubscriptionInputs>, false).changed.filter(
    (field): field is SubscriptionField => stored.has(field),
  );
}
/** Provider settings: the default provider's (stack config, then the environment) and explicit Providers'. */
export {
  SETTING_SOURCES,
  PROVIDER_KEYS,
  readSettings,
  clientSettings,
  type ConfigSource,
  type ConnectionSettings,
} from "./core/settings";

/** The model's names in HCL and back (`subscriberUrl` ↔ `subscriber_url`), as the Terraform door and its users write them. */
export { snakeCase, camelCase, inHclTerms } from "./description/hclNames";

/** What makes two subscriptions identical (event, scope, URL, header name), the one definition the provider's creates use. */
export { naturalKey };

/**
 * The natural key of a WebhookSubscription's checked inputs as state records them (plaintext
 * values), e.g. a pending create's: what the subscription its create sent would be identical to.
 */
export function naturalKeyOfInputs(inputs: Readonly<Record<string, unknown>>): string {
  return naturalKey(desiredOf(inputs as unknown as SubscriptionInputs));
}

/** The two front doors: the dynamic provider (TypeScript programs) and the native plugin (any language). */
export type FrontDoor = "dynamic" | "native";

/** The front door a WebhookSubscription's resource type (in state or in an engine event) belongs to; undefined for any other type. */
export function frontDoorOf(type: string | undefined): FrontDoor | undefined {
  if (type === WEBHOOK_SUBSCRIPTION_TYPE) return "dynamic";
  if (type === RESOURCE_TOKEN) return "native";
  return undefined;
}

/**
 * Whether a resource type is a WebhookSubscription, declared through either front door. Both
 * record the same outputs, under the same names.
 */
export function isWebhookSubscriptionType(type: string | undefined): boolean {
  return frontDoorOf(type) !== undefined;
}

/** Whether a provider resource in state is the native plugin's default provider (`pulumi:providers:webhooks::default…`). */
export function isNativeDefaultProvider(record: Omit<ProviderRecord, "inputs">): boolean {
  return record.type === PROVIDER_TOKEN && explicitProviderName(record.urn) === undefined;
}

/** A provider resource as state records it, with its inputs as plaintext values. */
export interface ProviderRecord {
  readonly type?: string;
  readonly urn?: string;
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** An explicit provider of either front door: its name in the program, and its settings. */
export interface ExplicitProvider {
  readonly name: string;
  /** Which front door's provider it is: a native `pulumi:providers:webhooks` or a dynamic `Provider`. */
  readonly frontDoor: FrontDoor;
  /** Its settings as `readSettings` takes them (`webhooks:*`, `webhooks:provider`). */
  readonly config: ConfigSource;
}

/**
 * The explicit provider a provider resource in state is, or undefined for a default provider or
 * anybody else's provider:
 * - native (`pulumi:providers:webhooks`): named by its URN, its inputs by setting name (`baseUrl`);
 * - dynamic (a `Provider`, a `pulumi-nodejs` provider resource): its inputs are the `webhooks:*`
 *   keys, its name under `webhooks:provider` (provider/dynamic/provider.ts).
 */
export function explicitProvider(record: ProviderRecord): ExplicitProvider | undefined {
  if (record.type === PROVIDER_TOKEN) {
    const name = explicitProviderName(record.urn);
    return name === undefined
      ? undefined
      : { name, frontDoor: "native", config: nativeConfigSource(record.inputs, record.urn) };
  }
  const name = record.inputs[PROVIDER_KEYS.provider];
  if (!record.type?.startsWith("pulumi:providers:") || typeof name !== "string") return undefined;
  const get = (key: string) => {
    const value = record.inputs[key];
    return value === undefined || value === null ? undefined : String(value);
  };
  return { name, frontDoor: "dynamic", config: { get } };
}

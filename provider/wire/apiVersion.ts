/**
 * API versions of the service. The configuration API has 1, 2, 3 (current stable) and
 * 4-preview, which all behave the same for subscriptions; 2024.1 is the legacy API, which
 * only has Subscribe and Unsubscribe.
 */
export const CONFIGURATION_API_VERSIONS = ["1", "2", "3", "4-preview"] as const;
export type ConfigurationApiVersion = (typeof CONFIGURATION_API_VERSIONS)[number];

export const LEGACY_API_VERSION = "2024.1";
export type ApiVersion = ConfigurationApiVersion | typeof LEGACY_API_VERSION;

/** The latest stable version; we always send it explicitly (the service's default moves). */
export const DEFAULT_API_VERSION: ConfigurationApiVersion = "3";

export const API_VERSIONS: readonly ApiVersion[] = [...CONFIGURATION_API_VERSIONS, LEGACY_API_VERSION];

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === "string" && (API_VERSIONS as readonly string[]).includes(value);
}

export function isLegacy(version: ApiVersion): version is typeof LEGACY_API_VERSION {
  return version === LEGACY_API_VERSION;
}

/** The five operations, named as in their URL paths. */
export const OPERATIONS = [
  "GetAllWebhookSubscriptions",
  "GetWebhookSubscription",
  "SubscribeToWebhook",
  "UpdateWebhookSubscription",
  "Unsubscribe",
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The only operations the legacy 2024.1 API offers. */
export const LEGACY_OPERATIONS: readonly Operation[] = ["SubscribeToWebhook", "Unsubscribe"];

/** Path prefixes of the two APIs, relative to the instance's base URL. */
export const CONFIGURATION_PATH = "/configuration/WebHookSubscription";
export const LEGACY_PATH = "/legacy/WebHookSubscription";

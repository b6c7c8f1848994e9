/**
 * Connection settings of the provider, read at run time from stack config (`webhooks:*`) with
 * environment variables as the fallback. Never taken from resource inputs, never stored in state.
 */
import { ConfigurationError, resolveApiVersion } from "../client";
import { DEFAULT_API_VERSION, isApiVersion, type ApiVersion } from "../wire";

/** The subset of a Pulumi config the provider reads (the dynamic provider's `configure` request config). */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** Settings as the client takes them; see product.md for the keys. */
export interface ConnectionSettings {
  baseUrl: string;
  apiVersion: ApiVersion;
  token?: string;
  oauth?: { clientId: string; clientSecret: string; tokenUrl: string };
  productName: string;
  maxRequestsPerSecond?: number;
}

/** Stack config key → environment variable. */
export const SETTING_SOURCES = {
  baseUrl: ["webhooks:baseUrl", "WEBHOOKS_BASE_URL"],
  apiVersion: ["webhooks:apiVersion", "WEBHOOKS_API_VERSION"],
  token: ["webhooks:token", "WEBHOOKS_TOKEN"],
  clientId: ["webhooks:clientId", "WEBHOOKS_CLIENT_ID"],
  clientSecret: ["webhooks:clientSecret", "WEBHOOKS_CLIENT_SECRET"],
  tokenUrl: ["webhooks:tokenUrl", "WEBHOOKS_TOKEN_URL"],
  productName: ["webhooks:productName", "WEBHOOKS_PRODUCT_NAME"],
  maxRequestsPerSecond: ["webhooks:maxRequestsPerSecond", "WEBHOOKS_MAX_RPS"],
} as const;

/** The api-version alone, for steps that must not need credentials (diff). */
export function apiVersionFromConfig(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): ApiVersion {
  const value = config?.get(SETTING_SOURCES.apiVersion[0]) || env[SETTING_SOURCES.apiVersion[1]] || DEFAULT_API_VERSION;
  return isApiVersion(value) ? value : DEFAULT_API_VERSION;
}

/**
 * Resolves the settings: stack config first, then the environment.
 * Secrets (token, client secret) are never put into error messages.
 */
export function settingsFromConfig(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const read = (name: keyof typeof SETTING_SOURCES): string | undefined => {
    const [key, variable] = SETTING_SOURCES[name];
    const value = config?.get(key) ?? env[variable];
    return value === undefined || value === "" ? undefined : value;
  };
  const where = (name: keyof typeof SETTING_SOURCES) =>
    `\`pulumi config set ${SETTING_SOURCES[name][0]}${name === "token" || name === "clientSecret" ? " --secret" : ""} …\` or ${SETTING_SOURCES[name][1]}`;

  // Values are checked by the client (WebhookSubscriptionClient), whose messages name these
  // config keys too; here only what the client cannot know: where they come from, what is missing.
  const baseUrl = read("baseUrl");
  if (!baseUrl)
    throw new ConfigurationError(
      "webhooks:baseUrl",
      `(the service's base URL) is not set: set it with ${where("baseUrl")}`,
    );
  const apiVersion = resolveApiVersion(read("apiVersion"));

  const token = read("token");
  const clientId = read("clientId");
  const clientSecret = read("clientSecret");
  const tokenUrl = read("tokenUrl");
  let oauth: ConnectionSettings["oauth"];
  if (!token) {
    if (clientId && clientSecret && tokenUrl) oauth = { clientId, clientSecret, tokenUrl };
    else if (clientId || clientSecret || tokenUrl) {
      const missing = (["clientId", "clientSecret", "tokenUrl"] as const).filter((n) => !read(n));
      throw new ConfigurationError(
        missing.map((n) => SETTING_SOURCES[n][0]).join(", "),
        `missing: OAuth2 client credentials need clientId, clientSecret and tokenUrl. Set ${missing.map(where).join("; ")}`,
      );
    } else
      throw new ConfigurationError(
        "webhooks:token",
        `is not set, nor are OAuth2 client credentials: set a bearer token with ${where("token")}, or webhooks:clientId, webhooks:clientSecret and webhooks:tokenUrl`,
      );
  }

  const rps = read("maxRequestsPerSecond");
  let maxRequestsPerSecond: number | undefined;
  if (rps !== undefined) {
    maxRequestsPerSecond = Number(rps);
    if (!Number.isFinite(maxRequestsPerSecond) || maxRequestsPerSecond <= 0)
      throw new ConfigurationError(
        "webhooks:maxRequestsPerSecond",
        `must be a positive number (fix it with ${where("maxRequestsPerSecond")})`,
        JSON.stringify(rps),
      );
  }

  const settings: ConnectionSettings = { baseUrl, apiVersion, productName: read("productName") ?? "service" };
  if (token) settings.token = token;
  if (oauth) settings.oauth = oauth;
  if (maxRequestsPerSecond !== undefined) settings.maxRequestsPerSecond = maxRequestsPerSecond;
  return settings;
}

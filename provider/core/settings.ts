/**
 * Connection settings of one provider instance, read at run time by the one lookup below:
 *
 * - the default provider reads stack config (`webhooks:*`), with `WEBHOOKS_*` environment
 *   variables as the fallback;
 * - an explicit `Provider` passes its arguments as config under the same keys, plus
 *   `webhooks:provider` (its name); it never falls back to `WEBHOOKS_*`, and reads the
 *   environment only where its `tokenFromEnv` / `clientSecretFromEnv` point.
 *
 * Every value is checked here, so a bad setting fails `check` at preview, and each message
 * names the setting where it was read (`WEBHOOKS_API_VERSION`, `webhooks:apiVersion` or
 * `Provider "prod" apiVersion`). Never taken from resource inputs, never stored in state by us.
 */
import { ConfigurationError, resolveSettings, type ClientSettings, type LimitNames } from "../client";
import { DEFAULT_API_VERSION, type ApiVersion } from "../wire";
import { PULUMI_WORDING, type FrontDoorWording } from "./settingWording";

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
  /** Where the token or client credentials were read (`webhooks:token`, `WEBHOOKS_TOKEN`, …), for a 401's message. */
  credentialSource?: string;
  productName: string;
  maxRequestsPerSecond?: number;
  /** Time allowed for each attempt's response. @default 30000 */
  requestTimeoutMs?: number;
  /** How long a call keeps retrying. @default 120000 */
  retryDeadlineMs?: number;
  /** The settings a rate-limit failure advises to change, as the front door in use names them. */
  limitNames?: LimitNames;
}

/** Everything one provider instance runs with. */
export interface ProviderSettings {
  connection: ConnectionSettings;
  /**
   * Whether create takes over an identical subscription it finds instead of creating its own
   * (`webhooks:adoptIdentical`): an opt-in for the run that recovers a killed `up`, since the one
   * it takes may be another stack's. @default false
   */
  adoptIdentical: boolean;
  /** The explicit `Provider`'s name; undefined for the default provider. */
  providerName?: string;
  /**
   * Whether the credential is one of the provider's inputs, which the engine records in the
   * state at each `up` (stack config `webhooks:token` / `webhooks:clientSecret`, or a Provider's
   * `token` / `clientSecret` argument), rather than an environment variable read at run time.
   * A plain `pulumi refresh` or `pulumi destroy` configures the provider from the state, so it
   * sends the credential of the last `up` (docs/security.md, "Rotating a credential").
   */
  credentialInState: boolean;
}

/** Stack config key → environment variable of the default provider. */
export const SETTING_SOURCES = {
  baseUrl: ["webhooks:baseUrl", "WEBHOOKS_BASE_URL"],
  apiVersion: ["webhooks:apiVersion", "WEBHOOKS_API_VERSION"],
  token: ["webhooks:token", "WEBHOOKS_TOKEN"],
  clientId: ["webhooks:clientId", "WEBHOOKS_CLIENT_ID"],
  clientSecret: ["webhooks:clientSecret", "WEBHOOKS_CLIENT_SECRET"],
  tokenUrl: ["webhooks:tokenUrl", "WEBHOOKS_TOKEN_URL"],
  productName: ["webhooks:productName", "WEBHOOKS_PRODUCT_NAME"],
  maxRequestsPerSecond: ["webhooks:maxRequestsPerSecond", "WEBHOOKS_MAX_RPS"],
  requestTimeoutMs: ["webhooks:requestTimeoutMs", "WEBHOOKS_REQUEST_TIMEOUT_MS"],
  retryDeadlineMs: ["webhooks:retryDeadlineMs", "WEBHOOKS_RETRY_DEADLINE_MS"],
  adoptIdentical: ["webhooks:adoptIdentical", "WEBHOOKS_ADOPT_IDENTICAL"],
} as const;
export type SettingName = keyof typeof SETTING_SOURCES;

/** Config keys only an explicit `Provider` passes. */
export const PROVIDER_KEYS = {
  provider: "webhooks:provider",
  tokenFromEnv: "webhooks:tokenFromEnv",
  clientSecretFromEnv: "webhooks:clientSecretFromEnv",
} as const;

/** What the engine passes for a value not known yet (a preview of an Output from an uncreated resource). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Settings that are secrets: never shown, and stored as ciphertext. */
export const SECRET_SETTINGS: ReadonlySet<SettingName> = new Set(["token", "clientSecret"]);

/** The client's name of a field → ours, to relabel the client's value checks. */
const CLIENT_FIELDS: Record<string, SettingName> = {
  baseUrl: "baseUrl",
  apiVersion: "apiVersion",
  token: "token",
  "oauth.clientId": "clientId",
  "oauth.clientSecret": "clientSecret",
  "oauth.tokenUrl": "tokenUrl",
  productName: "productName",
  maxRequestsPerSecond: "maxRequestsPerSecond",
  timeoutMs: "requestTimeoutMs",
  "retry.deadlineMs": "retryDeadlineMs",
};

/** Thrown when a setting is not known yet (preview with an unresolved Output): nothing to check. */
export class SettingsNotKnownYet extends Error {
  override readonly name = "SettingsNotKnownYet";
}

/** The api-version alone, for steps that must not fail on other settings (diff). */
export function apiVersionOf(settings: ProviderSettings | undefined): ApiVersion {
  return settings?.connection.apiVersion ?? DEFAULT_API_VERSION;
}

/**
 * Resolves and checks every setting; throws `ConfigurationError` naming the setting where it
 * was read, or `SettingsNotKnownYet`. Secrets are never put into messages.
 * @param wording how the front door in use names its settings in advice. @default PULUMI_WORDING
 */
export function readSettings(
  config?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
  wording: FrontDoorWording = PULUMI_WORDING,
): ProviderSettings {
  const providerName = config?.get(PROVIDER_KEYS.provider);
  const label = (name: SettingName, fromEnv: boolean) =>
    providerName !== undefined
      ? `Provider "${providerName}" ${name}`
      : fromEnv
        ? SETTING_SOURCES[name][1]
        : SETTING_SOURCES[name][0];
  const labels = new Map<SettingName, string>();
  const read = (name: SettingName): string | undefined => {
    const [key, variable] = SETTING_SOURCES[name];
    // A Provider's number and boolean arguments arrive as such; stack config holds strings.
    const given: unknown = config?.get(key);
    let value = given === undefined || given === null ? undefined : String(given);
    let fromEnv = false;
    if ((value === undefined || value === "") && providerName === undefined) {
      value = env[variable];
      fromEnv = value !== undefined && value !== "";
    }
    if (value === UNKNOWN_VALUE) throw new SettingsNotKnownYet(`${label(name, false)} is not known yet`);
    if (value === undefined || value === "") return undefined;
    labels.set(name, label(name, fromEnv));
    return value;
  };
  /** The command that sets `name`: a secret's value after `--`, or a token that begins with `-` is read as an option. */
  const command = (name: SettingName) => {
    const [key] = SETTING_SOURCES[name];
    return SECRET_SETTINGS.has(name) ? `pulumi config set --secret ${key} -- …` : `pulumi config set ${key} …`;
  };
  const how = (name: SettingName) =>
    providerName !== undefined
      ? `the ${name} argument of Provider "${providerName}"`
      : `\`${command(name)}\` or ${SETTING_SOURCES[name][1]}`;
  const where = (name: SettingName) => labels.get(name) ?? label(name, false);

  const baseUrl = read("baseUrl");
  if (!baseUrl)
    throw new ConfigurationError(
      where("baseUrl"),
      `(the service's base URL) is not set: set it with ${how("baseUrl")}`,
    );

  // Checked with the other values below, by the client.
  const apiVersion = (read("apiVersion") ?? DEFAULT_API_VERSION) as ApiVersion;

  const token = read("token") ?? fromNamedEnv(config, env, providerName, "tokenFromEnv", labels, "token");
  const clientId = read("clientId");
  const clientSecret =
    read("clientSecret") ?? fromNamedEnv(config, env, providerName, "clientSecretFromEnv", labels, "clientSecret");
  const tokenUrl = read("tokenUrl");
  let oauth: ConnectionSettings["oauth"];
  if (!token) {
    const given = { clientId, clientSecret, tokenUrl };
    if (clientId && clientSecret && tokenUrl) oauth = { clientId, clientSecret, tokenUrl };
    else if (clientId || clientSecret || tokenUrl) {
      const missing = (["clientId", "clientSecret", "tokenUrl"] as const).filter((n) => !given[n]);
      throw new ConfigurationError(
        missing.map(where).join(", "),
        `missing: OAuth2 client credentials need clientId, clientSecret and tokenUrl. Set ${missing.map(how).join("; ")}`,
      );
    } else
      throw new ConfigurationError(
        where("token"),
        `is not set, nor are OAuth2 client credentials: set a bearer token with ${how("token")}, or clientId, clientSecret and tokenUrl`,
      );
  }

  const number = (name: "maxRequestsPerSecond" | "requestTimeoutMs" | "retryDeadlineMs"): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0)
      throw new ConfigurationError(
        where(name),
        `must be a positive number (fix it with ${how(name)})`,
        JSON.stringify(raw),
      );
    return value;
  };
  const rawAdopt = read("adoptIdentical");
  if (rawAdopt !== undefined && rawAdopt !== "true" && rawAdopt !== "false")
    throw new ConfigurationError(
      where("adoptIdentical"),
      `must be true or false (fix it with ${how("adoptIdentical")})`,
      JSON.stringify(rawAdopt),
    );

  const connection: ConnectionSettings = { baseUrl, apiVersion, productName: read("productName") ?? "service" };
  if (token) connection.token = token;
  if (oauth) connection.oauth = oauth;
  connection.credentialSource = token ? where("token") : `${where("clientId")} and ${where("clientSecret")}`;
  const maxRequestsPerSecond = number("maxRequestsPerSecond");
  if (maxRequestsPerSecond !== undefined) connection.maxRequestsPerSecond = maxRequestsPerSecond;
  const requestTimeoutMs = number("requestTimeoutMs");
  if (requestTimeoutMs !== undefined) connection.requestTimeoutMs = requestTimeoutMs;
  const retryDeadlineMs = number("retryDeadlineMs");
  if (retryDeadlineMs !== undefined) connection.retryDeadlineMs = retryDeadlineMs;
  const named = (name: SettingName) =>
    wording.setting({
      name,
      envVar: SETTING_SOURCES[name][1],
      ...(providerName === undefined ? {} : { provider: providerName }),
      source: !labels.has(name) ? "unset" : labels.get(name) === SETTING_SOURCES[name][1] ? "env" : "config",
    });
  connection.limitNames = {
    retryDeadline: named("retryDeadlineMs"),
    maxRequestsPerSecond: named("maxRequestsPerSecond"),
    parallelism: wording.parallelism,
  };

  // The client checks the values (URL, product word, secrets usable in a header); its messages
  // are relabelled with where each setting was read.
  const resolved = relabelled(where, () => resolveSettings(clientSettings(connection)));
  connection.baseUrl = resolved.baseUrl;
  connection.apiVersion = resolved.apiVersion;
  const credential = token ? "token" : "clientSecret";
  const credentialInState = labels.get(credential) === label(credential, false);
  const settings: ProviderSettings = { connection, adoptIdentical: rawAdopt === "true", credentialInState };
  if (providerName !== undefined) settings.providerName = providerName;
  return settings;
}

/**
 * What a refused credential's message adds when the credential comes from the state's record of
 * the provider inputs: after a rotation, a plain refresh, destroy or import still sends the old
 * one, and only a run of the program (or an `up`) configures the provider with the current one.
 */
export function staleCredentialHint(settings: ProviderSettings): string | undefined {
  if (!settings.credentialInState) return undefined;
  const credential = settings.connection.credentialSource ?? "the credential";
  return (
    `If ${credential} changed since the last \`pulumi up\`: a plain \`pulumi refresh\`, \`pulumi destroy\` or ` +
    "`pulumi import` sends the value that update recorded in the state. Run `pulumi up` first, or " +
    "`pulumi refresh --run-program` / `pulumi destroy --run-program`, to use the current one."
  );
}

/** The client's settings for a provider's connection settings. */
export function clientSettings(connection: ConnectionSettings): ClientSettings {
  const { requestTimeoutMs, retryDeadlineMs, ...rest } = connection;
  return {
    ...rest,
    ...(requestTimeoutMs === undefined ? {} : { timeoutMs: requestTimeoutMs }),
    ...(retryDeadlineMs === undefined ? {} : { retry: { deadlineMs: retryDeadlineMs } }),
  };
}

/** A credential an explicit Provider reads from the environment variable it names. */
function fromNamedEnv(
  config: ConfigSource | undefined,
  env: NodeJS.ProcessEnv,
  providerName: string | undefined,
  key: "tokenFromEnv" | "clientSecretFromEnv",
  labels: Map<SettingName, string>,
  setting: SettingName,
): string | undefined {
  // Provider arguments only: the default provider reads WEBHOOKS_TOKEN / WEBHOOKS_CLIENT_SECRET itself.
  if (providerName === undefined) return undefined;
  const variable = config?.get(PROVIDER_KEYS[key]);
  if (variable === undefined || variable === "") return undefined;
  const value = env[variable];
  if (value === undefined || value === "")
    throw new ConfigurationError(
      `Provider "${providerName}" ${key}`,
      `names the environment variable ${variable}, which is not set in the environment of this run: export it before running pulumi`,
    );
  labels.set(setting, `${variable} (Provider "${providerName}" ${key})`);
  return value;
}

/** Runs the client's check of a value, relabelling its ConfigurationError with our setting's name. */
function relabelled<T>(where: (name: SettingName) => string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    const name = err instanceof ConfigurationError ? CLIENT_FIELDS[err.field] : undefined;
    if (!name || !(err instanceof ConfigurationError)) throw err;
    // reason = "<field> <requirement>[, got: <value>]."
    throw new ConfigurationError(where(name), err.reason.slice(err.field.length + 1).replace(/\.$/, ""));
  }
}

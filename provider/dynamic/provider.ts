/**
 * `Provider`: one instance of the service, declared in the program, for programs that manage
 * several (test and production, one per tenant). Resources use it through `{ provider }`.
 *
 * It is an explicit provider resource of the dynamic-provider package (`pulumi-nodejs`): the
 * engine starts one plugin process per `Provider` and hands it these arguments as config, under
 * the same keys as the default provider's stack config (`webhooks:*`), so one lookup
 * (`settings.ts`) reads and checks both, at preview, with the same per-field messages.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ApiVersion } from "../wire";
import { PROVIDER_KEYS, SECRET_SETTINGS } from "../core/settings";

/** Arguments of a `Provider`; each is the counterpart of a `webhooks:*` stack config key. */
export interface ProviderArgs {
  /** `{base_url}` of the instance, an absolute http(s) URL. Where its subscriptions are recorded to live. */
  readonly baseUrl: pulumi.Input<string>;
  /** api-version sent on every call; `"2024.1"` selects the legacy API. @default "3" */
  readonly apiVersion?: pulumi.Input<ApiVersion>;
  /** Bearer token. Always stored as a secret (ciphertext in state). Or use `tokenFromEnv`, or OAuth. @default undefined */
  readonly token?: pulumi.Input<string>;
  /**
   * Name of an environment variable holding the bearer token, read at run time by the provider,
   * so the token is never stored in state (e.g. `"PROD_WEBHOOKS_TOKEN"` set by CI). @default undefined
   */
  readonly tokenFromEnv?: pulumi.Input<string>;
  /** OAuth2 client id (client-credentials grant), with `clientSecret` and `tokenUrl`. @default undefined */
  readonly clientId?: pulumi.Input<string>;
  /** OAuth2 client secret. Always stored as a secret. Or use `clientSecretFromEnv`. @default undefined */
  readonly clientSecret?: pulumi.Input<string>;
  /** Name of an environment variable holding the OAuth2 client secret, read at run time. @default undefined */
  readonly clientSecretFromEnv?: pulumi.Input<string>;
  /** OAuth2 token endpoint. @default undefined */
  readonly tokenUrl?: pulumi.Input<string>;
  /** The word in the `x-<product>-signature` header of delivered messages. @default "service" */
  readonly productName?: pulumi.Input<string>;
  /** Ceiling of the client-side rate limit for this instance. @default unlimited until the first 429, then adaptive */
  readonly maxRequestsPerSecond?: pulumi.Input<number>;
  /** Time allowed for each request's response, in milliseconds. @default 30000 */
  readonly requestTimeoutMs?: pulumi.Input<number>;
  /** How long a call keeps retrying failures and 429s, in milliseconds. @default 120000 */
  readonly retryDeadlineMs?: pulumi.Input<number>;
  /**
   * Whether creating a subscription takes over an identical one it finds on the instance instead
   * of creating its own beside it. An opt-in for the run that recovers a killed `up`
   * (docs/recovery.md): the one taken may be another stack's, which would then be co-owned.
   * @default false
   */
  readonly adoptIdentical?: pulumi.Input<boolean>;
}

/**
 * A Provider's arguments under the config keys its plugin reads (`settings.ts`): `webhooks:<arg>`,
 * the two `…FromEnv` names, and the Provider's name.
 * @param wrap applied to each value with its argument's name (e.g. to mark secrets).
 */
export function providerConfig<T>(
  name: string,
  args: Record<string, T>,
  wrap: (arg: string, value: T) => unknown = (_arg, value) => value,
): Record<string, unknown> {
  const envArgs: Record<string, string> = {
    tokenFromEnv: PROVIDER_KEYS.tokenFromEnv,
    clientSecretFromEnv: PROVIDER_KEYS.clientSecretFromEnv,
  };
  const config: Record<string, unknown> = { [PROVIDER_KEYS.provider]: name };
  for (const [arg, value] of Object.entries(args))
    if (value !== undefined) config[envArgs[arg] ?? `webhooks:${arg}`] = wrap(arg, value);
  return config;
}

/**
 * One instance of the service. Without a `provider` option, resources use the default
 * provider (stack config `webhooks:*` / `WEBHOOKS_*` environment variables).
 *
 * ```ts
 * const prod = new Provider("prod", { baseUrl: "https://prod.example.com", tokenFromEnv: "PROD_WEBHOOKS_TOKEN" });
 * new WebhookSubscription("orders", { ... }, { provider: prod });
 * ```
 */
export class Provider extends pulumi.ProviderResource {
  /** The name and arguments as given, for `listWebhookSubscriptions({ provider })`; never serialized. */
  readonly declared: { readonly name: string; readonly args: ProviderArgs };

  constructor(name: string, args: ProviderArgs, opts?: pulumi.ResourceOptions) {
    // The engine hands a provider resource's inputs to its plugin's `configure` as config.
    const config = providerConfig(name, { ...args }, (arg, value) =>
      // Secret whatever the program passed: the settings that are secret (token, clientSecret).
      (SECRET_SETTINGS as ReadonlySet<string>).has(arg) ? pulumi.secret(value) : value,
    );
    super("pulumi-nodejs", name, config as pulumi.Inputs, opts);
    this.declared = { name, args };
  }
}

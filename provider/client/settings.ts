/**
 * The client's settings, checked once when a client is built. A bad value is reported as a
 * `ConfigurationError` naming the setting (and its Pulumi config key) with the value, except
 * for secrets, whose value is never shown.
 */
import type { Dispatcher } from "undici";
import {
  API_VERSIONS,
  DEFAULT_API_VERSION,
  isApiVersion,
  isHttpUrl,
  PRODUCT_PATTERN,
  type ApiVersion,
  type Clock,
  type Operation,
} from "../wire";
import type { OAuthSettings } from "./auth";
import type { RequestLimiter } from "./limiter";
import { ConfigurationError, type LimitNames } from "./errors";

/** Retry tuning; see `retry.ts` for which failures are retried at all. */
export interface RetrySettings {
  /**
   * How long a call keeps retrying, from its first send. For 429s, the clock restarts whenever
   * the instance accepts another request of this process, so a call waiting its turn in a
   * long, steadily progressing run is not failed; RateLimitedError means no progress at all
   * for this long. A retry is scheduled only when its backoff ends within the deadline; the
   * limiter's pacing may then send it up to one pacing interval later. @default 120000
   */
  readonly deadlineMs?: number;
  /** Ceiling of the first backoff; doubles each retry, with full jitter. @default 250 */
  readonly baseMs?: number;
  /** Largest backoff. @default 10000 */
  readonly capMs?: number;
  /**
   * Attempts per call for 5xx and network failures. 429s, and every failure of an Unsubscribe
   * (idempotent), are bounded by the deadline alone. @default 4
   */
  readonly maxAttempts?: number;
}

/** One attempt of one call, reported to `onRequest`. Holds no credentials. */
export interface RequestEvent {
  readonly operation: Operation;
  readonly method: "GET" | "POST";
  /** Path and query as sent, e.g. `/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`. */
  readonly path: string;
  /** 1 for the first attempt of the call. */
  readonly attempt: number;
  /** The response status; absent when the attempt failed on the network. */
  readonly status?: number;
  /** The network error code when there was no response, e.g. `ECONNREFUSED`. */
  readonly networkCode?: string;
  /** From sending to the end of the response body. */
  readonly durationMs: number;
  /** Time spent waiting for the client-side rate limiter before sending. */
  readonly queuedMs: number;
  /** Present when another attempt follows: the backoff before it. */
  readonly retryInMs?: number;
  /**
   * Present with `retryInMs`: how long from now the call gives up if it keeps failing. For 429s
   * this moves later whenever the instance accepts another request of this process.
   */
  readonly givesUpInMs?: number;
}

/** How to reach and authenticate to one instance. */
export interface ClientSettings {
  /** `{base_url}` of the instance, an absolute http(s) URL (config `webhooks:baseUrl`). */
  readonly baseUrl: string;
  /** api-version sent on every call; `2024.1` selects the legacy API. @default "3" */
  readonly apiVersion?: ApiVersion;
  /** Static bearer token (secret). Mutually exclusive with `oauth`. */
  readonly token?: string;
  /** OAuth2 client credentials; the token is fetched, cached and renewed. */
  readonly oauth?: OAuthSettings;
  /**
   * Where the token or the OAuth client credentials were read (e.g. `"webhooks:token"`), named
   * by a 401's message so that the reader knows which setting to fix. @default not named
   */
  readonly credentialSource?: string;
  /** The word in the `x-<product>-signature` header of delivered messages. @default "service" */
  readonly productName?: string;
  /** Ceiling of the client-side rate limit. @default unlimited until the first 429 */
  readonly maxRequestsPerSecond?: number;
  /**
   * How the people running this client change its rate-limit handling, named by a
   * RateLimitedError's advice: a host (a Pulumi or Terraform provider) names its own settings.
   * @default the client's own options (`maxRequestsPerSecond`, `retry.deadlineMs`)
   */
  readonly limitNames?: LimitNames;
  /**
   * The rate limiter to pace requests with, shared with other clients of the same instance
   * (`InstanceLimiters.for(baseUrl)`). @default a limiter of this client and its siblings alone
   */
  readonly limiter?: RequestLimiter;
  /** Transport to use instead of the client's own keep-alive Agent, e.g. undici's MockAgent. Not closed by `close()`. */
  readonly dispatcher?: Dispatcher;
  readonly retry?: RetrySettings;
  /** Time allowed for response headers, and between body chunks, of each attempt. @default 30000 */
  readonly timeoutMs?: number;
  /** Called after every attempt, e.g. to show progress. Errors it throws are ignored. */
  readonly onRequest?: (event: RequestEvent) => void;
  /** When OAuth tokens are due for renewal; inject a fake one in tests. @default systemClock */
  readonly clock?: Pick<Clock, "now">;
  /**
   * Aborting it ends every call's waits (rate limiter, backoff) at once with `StoppedError`, and
   * no call sends again: how a host honours a stop request (Terraform's StopProvider).
   * @default never aborted
   */
  readonly signal?: AbortSignal;
}

/** Settings with every default applied and every value checked. */
export interface ResolvedSettings {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Path of the base URL, without a trailing slash (`""` at the root). */
  readonly basePath: string;
  readonly apiVersion: ApiVersion;
  readonly token?: string;
  readonly oauth?: OAuthSettings;
  readonly credentialSource?: string;
  readonly productName: string;
  readonly maxRequestsPerSecond?: number;
  readonly limitNames?: LimitNames;
  readonly limiter?: RequestLimiter;
  readonly dispatcher?: Dispatcher;
  readonly retry: Required<RetrySettings>;
  readonly timeoutMs: number;
  readonly onRequest?: (event: RequestEvent) => void;
  readonly clock: Pick<Clock, "now"> | undefined;
  readonly signal?: AbortSignal;
}

/** Retry tuning when the settings leave it out. */
export const DEFAULT_RETRY: Required<RetrySettings> = {
  deadlineMs: 120_000,
  baseMs: 250,
  capMs: 10_000,
  maxAttempts: 4,
};
/** Per-attempt timeout when the settings leave it out. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The product word of the signature header when the settings leave it out (product.md). */
export const DEFAULT_PRODUCT_NAME = "service";

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function httpUrl(field: string, value: unknown): URL {
  const requirement = 'must be an absolute http(s) URL such as "https://instance.example.com"';
  if (typeof value !== "string" || !isHttpUrl(value)) throw new ConfigurationError(field, requirement, show(value));
  return new URL(value);
}

function positiveNumber(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(field, "must be a positive number", show(value));
  }
  return value;
}

/** A secret string must be present and usable in a header; its value is never shown. */
function secretString(field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || /\s/.test(value)) {
    throw new ConfigurationError(
      field,
      "must be a non-empty string without whitespace (value not shown: it is secret)",
    );
  }
  return value;
}

function resolveOAuth(oauth: OAuthSettings): OAuthSettings {
  if (typeof oauth.clientId !== "string" || oauth.clientId.trim() === "") {
    throw new ConfigurationError("oauth.clientId", "must be a non-empty string", show(oauth.clientId));
  }
  return {
    clientId: oauth.clientId,
    clientSecret: secretString("oauth.clientSecret", oauth.clientSecret),
    tokenUrl: httpUrl("oauth.tokenUrl", oauth.tokenUrl).href,
  };
}

function resolveRetry(retry: RetrySettings = {}): Required<RetrySettings> {
  const resolved = {
    deadlineMs: positiveNumber("retry.deadlineMs", retry.deadlineMs, DEFAULT_RETRY.deadlineMs),
    baseMs: positiveNumber("retry.baseMs", retry.baseMs, DEFAULT_RETRY.baseMs),
    capMs: positiveNumber("retry.capMs", retry.capMs, DEFAULT_RETRY.capMs),
    maxAttempts: positiveNumber("retry.maxAttempts", retry.maxAttempts, DEFAULT_RETRY.maxAttempts),
  };
  if (!Number.isInteger(resolved.maxAttempts)) {
    throw new ConfigurationError("retry.maxAttempts", "must be a whole number of attempts", show(retry.maxAttempts));
  }
  if (resolved.capMs < resolved.baseMs) {
    throw new ConfigurationError(
      "retry.capMs",
      `must be at least retry.baseMs (${resolved.baseMs})`,
      show(resolved.capMs),
    );
  }
  return resolved;
}

/** Checks an api-version, e.g. one passed to `withApiVersion`. */
export function resolveApiVersion(value: unknown): ApiVersion {
  if (value === undefined) return DEFAULT_API_VERSION;
  if (!isApiVersion(value)) {
    throw new ConfigurationError(
      "apiVersion",
      `must be one of ${API_VERSIONS.map((v) => `"${v}"`).join(", ")}`,
      show(value),
    );
  }
  return value;
}

/** Checks `settings` and applies the defaults; throws `ConfigurationError` on the first bad value. */
export function resolveSettings(settings: ClientSettings): ResolvedSettings {
  if (typeof settings !== "object" || settings === null) {
    throw new ConfigurationError("settings", "must be an object with at least baseUrl", show(settings));
  }
  const url = httpUrl("baseUrl", settings.baseUrl);
  if (url.search || url.hash) {
    throw new ConfigurationError("baseUrl", "must not have a query or fragment", show(settings.baseUrl));
  }
  if (settings.token !== undefined && settings.oauth !== undefined) {
    throw new ConfigurationError(
      "token",
      "and oauth are both set: configure a token or OAuth client credentials, not both",
    );
  }
  const productName = settings.productName ?? DEFAULT_PRODUCT_NAME;
  if (typeof productName !== "string" || !PRODUCT_PATTERN.test(productName)) {
    throw new ConfigurationError("productName", "must be letters, digits and hyphens", show(productName));
  }
  const dispatcher = settings.dispatcher;
  if (dispatcher !== undefined && typeof (dispatcher as { dispatch?: unknown }).dispatch !== "function") {
    throw new ConfigurationError("dispatcher", "must be an undici Dispatcher (Agent, Pool, MockAgent, …)");
  }
  if (settings.onRequest !== undefined && typeof settings.onRequest !== "function") {
    throw new ConfigurationError("onRequest", "must be a function", show(settings.onRequest));
  }
  const basePath = url.pathname.replace(/\/+$/, "");
  return {
    baseUrl: `${url.origin}${basePath}`,
    origin: url.origin,
    basePath,
    apiVersion: resolveApiVersion(settings.apiVersion),
    token: settings.token === undefined ? undefined : secretString("token", settings.token),
    oauth: settings.oauth === undefined ? undefined : resolveOAuth(settings.oauth),
    credentialSource: settings.credentialSource,
    productName,
    maxRequestsPerSecond:
      settings.maxRequestsPerSecond === undefined
        ? undefined
        : positiveNumber("maxRequestsPerSecond", settings.maxRequestsPerSecond, 0),
    limitNames: settings.limitNames,
    limiter: settings.limiter,
    dispatcher,
    retry: resolveRetry(settings.retry),
    timeoutMs: positiveNumber("timeoutMs", settings.timeoutMs, DEFAULT_TIMEOUT_MS),
    onRequest: settings.onRequest,
    clock: settings.clock,
    signal: settings.signal,
  };
}

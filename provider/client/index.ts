/**
 * The API client layer (`pulumi-webhook-subscriptions/client`): the typed client, its settings,
 * its errors and the pure pieces of its policy (retry, rate limit, redaction). Loads neither the
 * Pulumi SDK nor fastify. Process-wide internals (the shared limiter, the clock, the agent
 * options) are not exported: import them from their own files inside this package.
 */
export { WebhookSubscriptionClient } from "./client";
export { mayMeanGone } from "./possiblyGone";
export { VISIBILITY_NOTE } from "./visibility";
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_PRODUCT_NAME,
  resolveApiVersion,
  resolveSettings,
  type ClientSettings,
  type RetrySettings,
  type RequestEvent,
  type ResolvedSettings,
} from "./settings";
export * from "./errors";
export { errorFromResponse, type ResponseErrorContext } from "./errorFromResponse";
export {
  shouldRetry,
  backoffMs,
  notFoundMeansDone,
  retriesUntilDeadline,
  mayHaveCommitted,
  networkFailure,
  type Failure,
  type RetryVerdict,
  type BackoffOptions,
} from "./retry";
export { AimdRate, InstanceLimiters, RequestLimiter, type AimdOptions, type Clock } from "./limiter";
export {
  OAuthClientCredentials,
  staticToken,
  noCredentials,
  type Credentials,
  type OAuthSettings,
  type OAuthTransport,
} from "./auth";
export { redact, REDACTED } from "./redact";
export type {
  Subscription,
  SubscriptionSpec,
  SubscriptionList,
  UnreadableSubscription,
  ValidationMessage,
  ApiVersion,
} from "../wire";

/**
 * The API client layer: the typed client, its settings, its errors and the pure pieces of
 * its policy (retry, rate limit, redaction), re-exported for the package entry and tests.
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
export { AimdRate, InstanceLimiters, RequestLimiter, systemClock, type AimdOptions, type Clock } from "./limiter";
export {
  OAuthClientCredentials,
  staticToken,
  noCredentials,
  type Credentials,
  type OAuthSettings,
  type OAuthTransport,
} from "./auth";
export { AGENT_OPTIONS } from "./connection";
export { redact, REDACTED } from "./redact";
export type {
  Subscription,
  SubscriptionSpec,
  SubscriptionList,
  UnreadableSubscription,
  ValidationMessage,
  ApiVersion,
} from "../wire";

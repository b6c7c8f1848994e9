/**
 * pulumi-webhook-subscriptions: manage webhook subscriptions as code.
 *
 * The root entry is what a Pulumi program imports: the resource, the six events, the typed API
 * client and its errors, and the receiver's `verifySignature`. It never loads the emulator or the
 * drift review; those have their own entries (`/emulator`, `/drift`), as do the client alone
 * (`/client`, no Pulumi SDK) and the receiver alone (`/receiver`, node built-ins only).
 * Every name below is exported on purpose: internals (agents, clocks, limiters) stay inside.
 */

// The Pulumi resources, and the read-only lookup.
export {
  WebhookSubscription,
  WEBHOOK_SUBSCRIPTION_TYPE,
  type WebhookSubscriptionArgs,
  Provider,
  type ProviderArgs,
  listWebhookSubscriptions,
  type ListWebhookSubscriptionsOptions,
  type ListedSubscription,
} from "./provider/dynamic";

// The service's vocabulary.
export {
  Webhook,
  type WebhookId,
  type WebhookName,
  type Subscription,
  type SubscriptionSpec,
  type ValidationMessage,
  type ApiVersion,
} from "./provider/wire";

// The typed API client and its errors.
export {
  WebhookSubscriptionClient,
  type ClientSettings,
  type RetrySettings,
  type RequestEvent,
  type OAuthSettings,
  ErrorCode,
  WebhookApiError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ValidationFailedError,
  ClosedWorkItemError,
  UnreadableRequestError,
  VersionCannotRepresentError,
  RateLimitedError,
  TransportError,
  ServerError,
  UnexpectedResponseError,
  AmbiguousResultError,
  UnsupportedOperationError,
  ConfigurationError,
} from "./provider/client";

// For the receivers of the messages.
export {
  verifySignature,
  assertSignature,
  createVerifier,
  signatureHeaderName,
  SignatureVerificationError,
  SignatureErrorCode,
  SignatureOptionsError,
  SignatureOptionsErrorCode,
  type ExpectedSignature,
  type VerifySignatureOptions,
  type HeadersLike,
} from "./provider/receiver";

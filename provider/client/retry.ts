/**
 * Retry policy as pure functions, kept apart from the code that sends (stripe-node's
 * `_shouldRetry`/`_getSleepTimeInMS`, octokit's plugin-retry). The sender asks `shouldRetry`
 * after every failed attempt and sleeps `backoffMs` before the next one.
 *
 * The rule that shapes it: Subscribe and Update are not idempotent. Repeating one whose
 * first attempt may have been committed could create a duplicate subscription, so such an
 * attempt is reported as ambiguous for the caller to reconcile instead.
 */
import type { Operation } from "../wire";

/** How an attempt failed, as far as the retry policy cares. */
export type Failure =
  | { readonly kind: "status"; readonly status: number }
  | {
      readonly kind: "network";
      /** The error code, e.g. `ECONNREFUSED` or `UND_ERR_HEADERS_TIMEOUT`. */
      readonly code: string;
      /** False only when the failure proves the request never reached the service. */
      readonly sent: boolean;
    };

/** What to do after a failed attempt. */
export type RetryVerdict =
  /** Send again after `backoffMs` (if the deadline allows). */
  | "retry"
  /** Give up with the error of this attempt. */
  | "fail"
  /** Give up, reporting that the request may or may not have taken effect. */
  | "ambiguous";

/** Backoff tuning. */
export interface BackoffOptions {
  /** Ceiling of the first retry's delay. @default 250 */
  readonly baseMs: number;
  /** No delay exceeds this. @default 10000 */
  readonly capMs: number;
}

/** Operations that change state without being idempotent: never repeated blindly. */
const NOT_IDEMPOTENT: ReadonlySet<Operation> = new Set<Operation>(["SubscribeToWebhook", "UpdateWebhookSubscription"]);

/**
 * Connection failures that happen before any byte of the request is written: retrying them
 * is safe for every operation.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Failures caused by this process (client closed, request aborted): retrying cannot help. */
const LOCAL_CODES: ReadonlySet<string> = new Set([
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
  "UND_ERR_ABORTED",
  "UND_ERR_INVALID_ARG",
]);

/**
 * Decides whether a failed attempt is retried.
 *
 * | failure                          | GET, Unsubscribe | Subscribe, Update |
 * |----------------------------------|------------------|-------------------|
 * | 429                              | retry            | retry (429 proves nothing was done) |
 * | other 4xx                        | fail             | fail              |
 * | 5xx                              | retry            | ambiguous         |
 * | network, request never sent      | retry            | retry             |
 * | network/timeout after sending    | retry            | ambiguous         |
 * | caused locally (client closed)   | fail             | fail              |
 */
export function shouldRetry(operation: Operation, failure: Failure): RetryVerdict {
  if (failure.kind === "status") {
    if (failure.status === 429) return "retry";
    if (failure.status < 500) return "fail";
  } else {
    if (LOCAL_CODES.has(failure.code)) return "fail";
    if (!failure.sent) return "retry";
  }
  return NOT_IDEMPOTENT.has(operation) ? "ambiguous" : "retry";
}

/**
 * Whether a 404 means the work is already done: an Unsubscribe retried after an attempt that
 * may have deleted the subscription finds it gone, which is the outcome it wanted.
 *
 * @param mayHaveCommitted an earlier attempt of this call failed after the request was sent.
 */
export function notFoundMeansDone(operation: Operation, mayHaveCommitted: boolean): boolean {
  return operation === "Unsubscribe" && mayHaveCommitted;
}

/**
 * Whether the operation's retries are bounded by the deadline only, not by `maxAttempts`.
 * Unsubscribe is idempotent (a 404 after an attempt that may have deleted counts as done), and
 * giving it up early fails a `destroy` that one more attempt would have finished.
 */
export function retriesUntilDeadline(operation: Operation): boolean {
  return operation === "Unsubscribe";
}

/** Whether a failure leaves open that the service acted on the request. */
export function mayHaveCommitted(failure: Failure): boolean {
  return failure.kind === "network" ? failure.sent : failure.status >= 500;
}

/**
 * Delay before retry number `attempt` (1 for the first retry): exponential, capped, with full
 * jitter (a uniform draw from 0 to the exponential ceiling), which spreads the retries of many
 * concurrent callers so they do not hit the service again in lockstep.
 *
 * @param random a source of numbers in [0, 1); injectable for tests.
 */
export function backoffMs(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  // Clamp the exponent: 2 ** 1000 is Infinity, and the cap applies long before anyway.
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.floor(random() * ceiling);
}

/** The error code of a network failure, looking through wrappers (AggregateError from happy-eyeballs, `cause`). */
function networkCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    current = Array.isArray(errors) ? errors[0] : cause;
  }
  return "UNKNOWN";
}

/** Classifies a thrown transport error; an unknown error counts as sent, the safe assumption. */
export function networkFailure(error: unknown): Failure & { kind: "network" } {
  const code = networkCode(error);
  return { kind: "network", code, sent: !NOT_SENT_CODES.has(code) };
}

/**
 * Sends one logical call: waits for the rate limiter, authenticates, sends, and retries as
 * `retry.ts` decides, until it has a response to decode or a typed error to throw. This is
 * the retry layer; the operations in `client.ts` never loop themselves (stripe-node's
 * RequestSender, octokit's plugin-retry).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Connection } from "./connection";
import { errorFromResponse, type ResponseErrorContext } from "./errorFromResponse";
import { AmbiguousResultError, StoppedError, TransportError, type WebhookApiError } from "./errors";
import {
  backoffMs,
  mayHaveCommitted,
  networkFailure,
  notFoundMeansDone,
  retriesUntilDeadline,
  shouldRetry,
  type Failure,
  type RetryVerdict,
} from "./retry";
import type { RequestEvent, ResolvedSettings } from "./settings";

/** One call to send. */
export interface OutgoingRequest {
  readonly method: "GET" | "POST";
  /** Path and query, starting with `/`. */
  readonly path: string;
  /** JSON text of the body, if any. */
  readonly body?: string;
  /** What errors need to know; `context.operation` is the operation called. */
  readonly context: ResponseErrorContext;
}

/** A response that ends the call; its status is 2xx, or a 404 that `alreadyDone` explains. */
export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly attempts: number;
  /** An Unsubscribe found nothing to delete after an earlier attempt may have deleted it. */
  readonly alreadyDone: boolean;
}

type AttemptResult = { status: number; text: string } | { error: unknown };

interface HeaderCache {
  readonly authorization: string | undefined;
  readonly withoutBody: Record<string, string>;
  readonly withBody: Record<string, string>;
}

/** When an attempt started waiting and went out (limiter clock, ms). */
interface Timing {
  readonly attempt: number;
  readonly queuedFrom: number;
  readonly sentAt: number;
}

const USER_AGENT = "pulumi-webhook-subscriptions";

/** Human wording of the network failures users meet most. */
const NETWORK_DETAIL: Record<string, string> = {
  ECONNREFUSED: "the connection was refused (is the instance running at this address?)",
  ENOTFOUND: "the host name does not resolve",
  UND_ERR_CONNECT_TIMEOUT: "connecting timed out",
  UND_ERR_HEADERS_TIMEOUT: "no response arrived within timeoutMs",
  UND_ERR_BODY_TIMEOUT: "the response body stalled for longer than timeoutMs",
  UND_ERR_SOCKET: "the connection was closed before the response was complete",
  ECONNRESET: "the connection was reset before the response was complete",
};

/** Settles when `wait` does, or as soon as `signal` aborts; the caller checks `signal.aborted`. */
function untilAborted(wait: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
  if (signal === undefined) return wait;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", resolve, { once: true });
    // Removed once the wait ends: one signal outlives thousands of calls.
    wait.then(resolve, reject).finally(() => signal.removeEventListener("abort", resolve));
  });
}

/** Sends calls over one connection with the retry policy of the settings. */
export class RequestSender {
  private headerCache: HeaderCache | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly settings: ResolvedSettings,
    /** Source of jitter; injectable so tests can pin backoffs. */
    private readonly random: () => number = Math.random,
  ) {}

  /** Sends `request` until it succeeds or a typed error ends it. */
  async send(request: OutgoingRequest): Promise<Reply> {
    const { limiter, credentials } = this.connection;
    const { retry } = this.settings;
    const operation = request.context.operation;
    let attempts = 0;
    let retries = 0;
    let transientFailures = 0;
    let firstSentAt = 0;
    let uncertain = false;
    let renewedToken = false;
    let rateLimited = false;
    const { signal } = this.settings;

    for (;;) {
      if (signal?.aborted) throw this.stopped(request, attempts, rateLimited);
      const queuedFrom = limiter.now();
      const slot = limiter.acquire(queuedFrom);
      if (slot) {
        await untilAborted(slot, signal);
        if (signal?.aborted) throw this.stopped(request, attempts, rateLimited);
      }
      const pending = credentials.authorization(request.context);
      const authorization = typeof pending === "object" ? await pending : pending;

      attempts += 1;
      // The clock is read once per attempt on the fast path: it shows up in profiles.
      const sentAt = slot || typeof pending === "object" ? limiter.now() : queuedFrom;
      if (attempts === 1) firstSentAt = sentAt;
      const result = await this.attempt(request, authorization);
      const timing: Timing = { attempt: attempts, queuedFrom, sentAt };

      let failure: Failure;
      if ("status" in result) {
        limiter.observe(result.status, sentAt);
        const { status, text } = result;
        const alreadyDone = status === 404 && notFoundMeansDone(operation, uncertain);
        if ((status >= 200 && status < 300) || alreadyDone) {
          this.report(request, timing, { status });
          return { status, text, attempts, alreadyDone };
        }
        // One renewal per call: a token refused right after it was issued will not get better.
        if (status === 401 && !renewedToken && credentials.refused(authorization)) {
          renewedToken = true;
          this.report(request, timing, { status, retryInMs: 0 });
          continue;
        }
        failure = { kind: "status", status };
      } else {
        failure = networkFailure(result.error);
      }

      const verdict = shouldRetry(operation, failure);
      const isRateLimit = failure.kind === "status" && failure.status === 429;
      rateLimited = isRateLimit;
      if (!isRateLimit) transientFailures += 1;
      const delay = backoffMs(retries + 1, retry, this.random);
      // The deadline runs from the first send (time queued before it is pacing, not failure).
      // For 429s it restarts whenever the instance accepts any request of this process.
      const since = isRateLimit ? Math.max(firstSentAt, limiter.lastProgressAt) : firstSentAt;
      const givesUpInMs = since + retry.deadlineMs - limiter.now();
      const withinBudget =
        delay <= givesUpInMs &&
        (isRateLimit || retriesUntilDeadline(operation) || transientFailures < retry.maxAttempts);
      const again = verdict === "retry" && withinBudget;
      this.report(request, timing, {
        ...(failure.kind === "status" ? { status: failure.status } : { networkCode: failure.code }),
        ...(again ? { retryInMs: delay, givesUpInMs } : {}),
      });
      if (!again) throw this.failure(request, result, failure, verdict, attempts);
      uncertain ||= mayHaveCommitted(failure);
      retries += 1;
      // Aborting clears the timer and rejects; the check at the top of the loop then ends the call.
      await sleep(delay, undefined, { signal }).catch(() => undefined);
    }
  }

  /**
   * Request headers for `authorization`, with or without a JSON body. Built once per token and
   * reused (undici only reads them), since a fresh object per call shows up in profiles.
   */
  private headersFor(authorization: string | undefined, hasBody: boolean): Record<string, string> {
    let cache = this.headerCache;
    if (cache === undefined || cache.authorization !== authorization) {
      const base: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
      if (authorization !== undefined) base.authorization = authorization;
      cache = { authorization, withoutBody: base, withBody: { ...base, "content-type": "application/json" } };
      this.headerCache = cache;
    }
    return hasBody ? cache.withBody : cache.withoutBody;
  }

  /** One HTTP exchange; never throws. */
  private async attempt(request: OutgoingRequest, authorization: string | undefined): Promise<AttemptResult> {
    const headers = this.headersFor(authorization, request.body !== undefined);
    try {
      const response = await this.connection.dispatcher.request({
        origin: this.settings.origin,
        path: request.path,
        method: request.method,
        headers,
        body: request.body,
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
      });
      return { status: response.statusCode, text: await response.body.text() };
    } catch (error) {
      return { error };
    }
  }

  /** The error that ends a call. */
  private failure(
    request: OutgoingRequest,
    result: AttemptResult,
    failure: Failure,
    verdict: RetryVerdict,
    attempts: number,
  ): WebhookApiError {
    const { limitNames, retry } = this.settings;
    const context = { ...request.context, attempts, limitNames, deadlineMs: retry.deadlineMs };
    const error =
      "status" in result
        ? errorFromResponse(context, result.status, result.text)
        : new TransportError({
            ...context,
            cause: result.error,
            networkCode: failure.kind === "network" ? failure.code : "UNKNOWN",
            detail:
              NETWORK_DETAIL[failure.kind === "network" ? failure.code : ""] ?? "the request failed on the network",
            // Never holds userinfo or a query: the settings refuse a query, and the origin drops userinfo.
            url: this.settings.baseUrl,
          });
    return verdict === "ambiguous" ? new AmbiguousResultError({ ...context, cause: error }) : error;
  }

  /** The error that ends a call its host stopped before the next attempt. */
  private stopped(request: OutgoingRequest, attempts: number, rateLimited: boolean): StoppedError {
    return new StoppedError({ ...request.context, attempts, rateLimited });
  }

  /** Tells the `onRequest` hook about an attempt; builds nothing when there is no hook. */
  private report(
    request: OutgoingRequest,
    timing: Timing,
    outcome: Pick<RequestEvent, "status" | "networkCode" | "retryInMs" | "givesUpInMs">,
  ): void {
    const hook = this.settings.onRequest;
    if (hook === undefined) return;
    try {
      hook({
        operation: request.context.operation,
        method: request.method,
        path: request.path,
        attempt: timing.attempt,
        durationMs: this.connection.limiter.now() - timing.sentAt,
        queuedMs: timing.sentAt - timing.queuedFrom,
        ...outcome,
      });
    } catch {
      // A progress hook must not be able to fail a deployment.
    }
  }
}

/**
 * The client's typed errors. One base class with a stable string `code`; one subclass per
 * kind of failure, each setting `name` explicitly so minified bundles still say what failed.
 * Every message names the operation, the subscription GUID where there is one, what went
 * wrong and what to do next. Every field is redacted when the error is built, by the base
 * class, before anything is cut short (see `redact.ts`).
 * `errorFromResponse` (its own module) picks the class for an HTTP response.
 */
import { STATUS_CODES } from "node:http";
import type { z } from "zod";
import {
  CLOSED_PACKET_TEXT,
  CONFIGURATION_API_VERSIONS,
  LEGACY_OPERATIONS,
  type ApiVersion,
  type Operation,
  type ValidationMessage,
} from "../wire";
import { parseJson } from "./json";
import {
  REDACTED,
  harvestSecrets,
  redact,
  redactAndCut,
  redactDeep,
  withoutSecretInputs,
  type Secrets,
} from "./redact";

/** Stable machine-readable codes; they never change once released. */
export const ErrorCode = {
  Unauthorized: "UNAUTHORIZED",
  Forbidden: "FORBIDDEN",
  NotFound: "NOT_FOUND",
  ValidationFailed: "VALIDATION_FAILED",
  ClosedWorkItem: "CLOSED_WORK_ITEM",
  UnreadableRequest: "UNREADABLE_REQUEST",
  VersionCannotRepresent: "VERSION_CANNOT_REPRESENT",
  RateLimited: "RATE_LIMITED",
  Transport: "TRANSPORT",
  ServerError: "SERVER_ERROR",
  UnexpectedResponse: "UNEXPECTED_RESPONSE",
  AmbiguousResult: "AMBIGUOUS_RESULT",
  LegacyUnsupported: "LEGACY_UNSUPPORTED",
  Configuration: "CONFIGURATION",
  Stopped: "STOPPED",
} as const;
/** One of the `ErrorCode` values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The operation an error belongs to; `"Configure"` for invalid client settings. */
export type ErrorOperation = Operation | "Configure";

/** How the failed request was authenticated; it decides what a 401 message advises. */
export type AuthKind = "none" | "token" | "oauth";

/** Where a request failed. Every message is built from it. */
export interface ErrorContext {
  readonly operation: Operation;
  readonly apiVersion: ApiVersion;
  /** The subscription GUID, for Get, Update and Unsubscribe. */
  readonly guid?: string;
  /**
   * Values to remove from every field: token, issued OAuth tokens, client secret, custom
   * header value. Read while the error is built (so a live list sees tokens issued after the
   * context was made) and never stored on it.
   */
  readonly secrets?: Secrets;
}

/** Everything a `WebhookApiError` is built from. */
export interface ErrorInit extends Partial<Omit<ErrorContext, "operation">> {
  readonly operation: ErrorOperation;
  /** HTTP status of the response, when there was one. */
  readonly status?: number;
  /** Response body text; stored redacted, then truncated. */
  readonly body?: string;
  /** How many times the request was sent. */
  readonly attempts?: number;
  readonly cause?: unknown;
}

/** Bodies are kept for diagnosis, not archiving: an HTML error page can be megabytes. */
const MAX_BODY_CHARS = 4096;

/** `"404 Not Found"`. */
export function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

function where(init: ErrorInit): string {
  if (init.operation === "Configure") return "Client settings are invalid";
  const subject = init.guid ? ` of subscription ${init.guid}` : "";
  const version = init.apiVersion ? ` (api-version ${init.apiVersion})` : "";
  return `${init.operation}${subject}${version} failed`;
}

/**
 * The secrets to hide in an error: the context's (read once: the list may be live, as OAuth
 * tokens are issued, and every field must see the same one), plus the values the body shows
 * in secret positions (a Signature), which are hidden wherever they recur.
 */
function knownSecrets(init: ErrorInit): string[] {
  const fromCause = init.cause instanceof WebhookApiError ? (SECRETS_OF.get(init.cause) ?? []) : [];
  return [...(init.secrets ?? []), ...harvestSecrets(init.body), ...fromCause].filter(
    (s): s is string => typeof s === "string",
  );
}

/**
 * What each error was redacted with, so that an error wrapping it (AmbiguousResultError)
 * hides the same values. Module-private, so no view of an error can reach it.
 */
const SECRETS_OF = new WeakMap<object, readonly string[]>();

/** How much of the service's explanation a message quotes. */
const MAX_QUOTE_CHARS = 300;

/**
 * The service's own explanation, quoted for the message: the `Error` text of a JSON error
 * body (not in the spec, but instances and the emulator send it) or a one-line plain-text
 * body, redacted before it is shortened. Markup (an HTML page, an XML fault) is not quoted:
 * it is unreadable in a message, and it stays available, redacted, in `err.body`.
 */
function serviceSaid(init: ErrorInit): string {
  const body = init.body;
  if (!body) return "";
  const json = parseJson(body);
  const error = typeof json === "object" && json !== null ? (json as Record<string, unknown>).Error : undefined;
  const text = typeof error === "string" ? error : json === undefined ? body.trim() : "";
  if (text === "" || /[<\n]/.test(text)) return " The response body is in err.body.";
  return ` The service said: "${redactAndCut(text, MAX_QUOTE_CHARS, knownSecrets(init), "…")}".`;
}

/** Lines of a stack that name code locations; they hold no data. */
function stackFrames(stack: string | undefined): string {
  return (stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
}

/**
 * A redacted copy of an error's cause (an undici or system error, or anything thrown),
 * keeping its name, code and stack frames, so that `cause` chains hold no secret either.
 * Errors of this client were redacted when they were built and are kept as they are.
 */
function redactCause(cause: unknown, secrets: readonly string[], depth = 0): unknown {
  if (cause instanceof WebhookApiError) return cause;
  if (!(cause instanceof Error)) return redactDeep(cause, secrets);
  const copy = new Error(redact(cause.message, secrets));
  Object.defineProperty(copy, "name", { value: redact(cause.name, secrets), configurable: true, writable: true });
  copy.stack = `${copy.name}: ${copy.message}\n${stackFrames(cause.stack)}`;
  for (const [key, value] of Object.entries(cause)) {
    if (key !== "cause" && key !== "errors")
      (copy as unknown as Record<string, unknown>)[key] = redactDeep(value, secrets);
  }
  const nested = cause as { cause?: unknown; errors?: unknown };
  if (nested.cause !== undefined) copy.cause = depth < 4 ? redactCause(nested.cause, secrets, depth + 1) : REDACTED;
  if (Array.isArray(nested.errors) && depth < 4) {
    (copy as unknown as Record<string, unknown>).errors = nested.errors.map((e) => redactCause(e, secrets, depth + 1));
  }
  return copy;
}

function attemptsNote(attempts: number | undefined): string {
  return attempts && attempts > 1 ? ` after ${attempts} attempts` : "";
}

/** Base of every error this client throws. Catch it to handle them all; switch on `code`. */
export class WebhookApiError extends Error {
  override readonly name: string = "WebhookApiError";
  /** Stable machine-readable kind, e.g. `"NOT_FOUND"`. */
  readonly code: ErrorCode;
  /** The operation that failed (`"Configure"` for invalid settings). */
  readonly operation: ErrorOperation;
  /** api-version of the failed call. */
  readonly apiVersion?: ApiVersion;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** The subscription GUID the call was about, when there is one. */
  readonly guid?: string;
  /** Response body, redacted and truncated. */
  readonly body?: string;
  /** How many times the request was sent. */
  readonly attempts?: number;
  /** What went wrong, without the operation prefix and the advice (redacted). */
  readonly reason: string;

  /**
   * The one gate every field passes: all text is redacted here, before anything is cut.
   *
   * @param what what went wrong, after "<operation> failed: ".
   * @param todo what the reader should do next.
   * @param details the subclass's own fields (declared with `declare` there), redacted deeply.
   */
  constructor(code: ErrorCode, init: ErrorInit, what: string, todo: string, details?: object) {
    const secrets = knownSecrets(init);
    super(
      redact(`${where(init)}: ${what}${todo ? ` ${todo}` : ""}`, secrets),
      init.cause === undefined ? undefined : { cause: redactCause(init.cause, secrets) },
    );
    SECRETS_OF.set(this, secrets);
    this.code = code;
    this.reason = redact(what, secrets);
    this.operation = init.operation;
    this.apiVersion = init.apiVersion;
    this.status = init.status;
    if (init.guid !== undefined) this.guid = redact(init.guid, secrets);
    this.attempts = init.attempts;
    if (init.body !== undefined) this.body = redactAndCut(init.body, MAX_BODY_CHARS, secrets);
    if (details !== undefined) Object.assign(this, redactDeep(details, secrets));
  }

  /** What `JSON.stringify` and loggers see: the public fields, already redacted, no cause chain. */
  toJSON(): Record<string, unknown> {
    const { name, code, message, operation, apiVersion, status, guid, body, attempts } = this;
    return { name, code, message, operation, apiVersion, status, guid, body, attempts };
  }
}

const CREDENTIAL_SETTINGS =
  "a token (webhooks:token / WEBHOOKS_TOKEN) or OAuth client credentials " +
  "(webhooks:clientId, webhooks:clientSecret, webhooks:tokenUrl)";

/**
 * What a 401 says happened and what to do, by how the request was authenticated; `from` names
 * where the credential was read (" from webhooks:token"), or is empty.
 */
const UNAUTHORIZED: Record<AuthKind, (from: string) => [what: string, todo: string]> = {
  none: () => [`${statusLine(401)}: no credential was sent.`, `Set ${CREDENTIAL_SETTINGS}.`],
  token: (from) => [
    `${statusLine(401)}: the instance refused the bearer token${from}.`,
    "Replace it with a valid, unexpired token for this instance, or use OAuth client credentials " +
      "so that tokens are renewed automatically.",
  ],
  oauth: (from) => [
    `${statusLine(401)}: the instance refused a freshly issued OAuth token (client credentials${from}).`,
    "Check that the OAuth client and its tokenUrl belong to this instance.",
  ],
};

/**
 * 401: the instance refused the credential sent (OAuth tokens were already renewed once), or
 * none was sent. With `tokenUrl`, it was the OAuth token endpoint that refused the client credentials.
 */
export class UnauthorizedError extends WebhookApiError {
  override readonly name = "UnauthorizedError";
  /** @param init.credentialSource where the credential was read, named in the message. */
  constructor(init: ErrorInit & { auth: AuthKind; credentialSource?: string; tokenUrl?: string }) {
    const from = init.credentialSource ? ` from ${init.credentialSource}` : "";
    const [what, todo] = init.tokenUrl
      ? [
          `the OAuth token endpoint ${init.tokenUrl} answered ${statusLine(init.status ?? 0)} instead of a token.`,
          init.credentialSource
            ? `Check the client credentials (${init.credentialSource}) and the token URL.`
            : "Check webhooks:clientId, webhooks:clientSecret and webhooks:tokenUrl " +
              "(WEBHOOKS_CLIENT_ID, WEBHOOKS_CLIENT_SECRET, WEBHOOKS_TOKEN_URL).",
        ]
      : UNAUTHORIZED[init.auth](from);
    super(ErrorCode.Unauthorized, init, what, todo);
  }
}

/** 403: authenticated, but the account lacks the Builder role every operation requires. */
export class ForbiddenError extends WebhookApiError {
  override readonly name = "ForbiddenError";
  constructor(init: ErrorInit) {
    super(
      ErrorCode.Forbidden,
      init,
      `${statusLine(403)}: the account is authenticated but lacks the Builder role, which every subscription operation requires.`,
      "Ask an administrator of the instance to grant the Builder role to the account or OAuth client behind the token.",
    );
  }
}

/**
 * 404, or a Get answering an empty list (as the vendor's documentation shows): no subscription has
 * the GUID, or (without a GUID) the instance has no such endpoint.
 */
export class NotFoundError extends WebhookApiError {
  override readonly name = "NotFoundError";
  constructor(init: ErrorInit) {
    // The status actually received: a Get that answers 200 with an empty list is "not found" too.
    const answer =
      init.status === undefined || init.status === 404
        ? statusLine(404)
        : `${statusLine(init.status)} with an empty list`;
    const [what, todo] = init.guid
      ? [
          `${answer}: no subscription has GUID ${init.guid}.`,
          "It may have been deleted outside this program: run `pulumi refresh` to forget it, or correct the GUID.",
        ]
      : [
          `${statusLine(404)}: the instance has no such endpoint.`,
          "Check webhooks:baseUrl, and that the instance offers this api-version (a legacy-only instance answers only 2024.1).",
        ];
    super(ErrorCode.NotFound, init, what, todo);
  }
}

/** 400 with validation messages: the request was read but broke the service's rules. */
export class ValidationFailedError extends WebhookApiError {
  override readonly name = "ValidationFailedError";
  /** The service's reasons, with their MessageIDs (descriptions and parameters redacted). */
  declare readonly messages: readonly ValidationMessage[];
  constructor(init: ErrorInit & { messages: readonly ValidationMessage[] }) {
    const reasons = init.messages.map((m) => `[${m.messageId}] ${m.description}`).join("; ");
    super(
      ErrorCode.ValidationFailed,
      init,
      `${statusLine(init.status ?? 400)}: the service rejected the request: ${reasons}.`,
      "Correct the fields named above and try again.",
      { messages: init.messages },
    );
  }
}

/** 400 `Cannot create subscription for a closed packet.`: PacketUpdated on a Closed work item. */
export class ClosedWorkItemError extends WebhookApiError {
  override readonly name = "ClosedWorkItemError";
  /** The Closed work item, i.e. the FilterObjectGUID that was sent. */
  declare readonly workItemGuid?: string;
  constructor(init: ErrorInit & { workItemGuid?: string }) {
    super(
      ErrorCode.ClosedWorkItem,
      init,
      `${statusLine(400)}: work item ${init.workItemGuid ?? "(unknown)"} is Closed, and the service refuses ` +
        `PacketUpdated subscriptions on closed work items ("${CLOSED_PACKET_TEXT}").`,
      "Scope the subscription to an open work item (filterObjectGuid), reopen this one, or remove the subscription.",
      { workItemGuid: init.workItemGuid },
    );
  }
}

/** The causes the spec lists for a 400 without Messages. */
export const UNREADABLE_CAUSES = [
  "malformed JSON",
  "an enumeration sent as a string",
  "an unrecognised field",
  "an unknown enumeration value",
  "an incorrect GUID value",
] as const;

/**
 * 400 without Messages: the service could not read the request. Also thrown, with `sent`
 * false and the zod `issues`, when the client refuses to send a request that the wire
 * schema already shows the service could not read.
 */
export class UnreadableRequestError extends WebhookApiError {
  override readonly name = "UnreadableRequestError";
  /** False when the client caught the problem and sent nothing. */
  declare readonly sent: boolean;
  /** Why the wire schema refused the request, when `sent` is false (inputs redacted). */
  declare readonly issues?: readonly z.core.$ZodIssue[];
  constructor(init: ErrorInit & { issues?: readonly z.core.$ZodIssue[] }) {
    const sent = init.issues === undefined;
    const [what, todo] = sent
      ? [
          `${statusLine(400)} without validation messages: the service could not read the request. ` +
            `Possible causes (spec): ${UNREADABLE_CAUSES.join(", ")}.${serviceSaid(init)}`,
          "Check the values sent (webhook 0..5, GUIDs in 8-4-4-4-12 form); if they are right, this " +
            "api-version may not accept them, so report it with err.body.",
        ]
      : [
          `the request was not sent, because the service could not read it: ${formatIssues(init.issues ?? [])}.`,
          "Correct the values named above.",
        ];
    super(ErrorCode.UnreadableRequest, init, what, todo, {
      sent,
      issues: init.issues && withoutSecretInputs(init.issues),
    });
  }
}

/** Newer configuration versions than `version`, to suggest; empty for the newest or legacy. */
export function newerApiVersions(version: ApiVersion | undefined): readonly string[] {
  const index = (CONFIGURATION_API_VERSIONS as readonly string[]).indexOf(version ?? "");
  return index < 0 ? [] : CONFIGURATION_API_VERSIONS.slice(index + 1);
}

/** 400: the called api-version has no enumeration member for a value the service must return. */
export class VersionCannotRepresentError extends WebhookApiError {
  override readonly name = "VersionCannotRepresentError";
  constructor(init: ErrorInit) {
    const newer = newerApiVersions(init.apiVersion);
    super(
      ErrorCode.VersionCannotRepresent,
      init,
      `${statusLine(400)}: api-version ${init.apiVersion ?? "(unknown)"} has no enumeration member for a value ` +
        "the service must return (for example an event added in a later version), so it refused to answer.",
      newer.length > 0
        ? `Call a newer api-version (${newer.join(", ")}) via webhooks:apiVersion.`
        : "No newer api-version is known to this package: upgrade pulumi-webhook-subscriptions.",
    );
  }
}

/**
 * The settings that govern rate-limit handling, as the people running the client set them. The
 * client reports; whoever hosts it (a Pulumi provider, a Terraform provider) words the advice.
 */
export interface LimitNames {
  /** Where the retry deadline is set, e.g. `webhooks:retryDeadlineMs (or WEBHOOKS_RETRY_DEADLINE_MS)`. @default "retry.deadlineMs" */
  readonly retryDeadline?: string;
  /** Where the client-side rate limit is set. @default "maxRequestsPerSecond" */
  readonly maxRequestsPerSecond?: string;
  /** How to run fewer operations at once, e.g. `` `pulumi up --parallel N` ``. @default not said */
  readonly parallelism?: string;
}

/** 429 on every attempt until the retry deadline ran out. */
export class RateLimitedError extends WebhookApiError {
  override readonly name = "RateLimitedError";
  /**
   * @param init.limitNames how the advice names the settings to change.
   * @param init.deadlineMs the retry deadline that ran out, said in the message.
   */
  constructor(init: ErrorInit & { limitNames?: LimitNames; deadlineMs?: number }) {
    const names = init.limitNames ?? {};
    const deadline = init.deadlineMs === undefined ? "" : ` (${formatSeconds(init.deadlineMs)} without progress)`;
    super(
      ErrorCode.RateLimited,
      init,
      `${statusLine(429)}${attemptsNote(init.attempts)}: the instance's rate limit was still exceeded when the retry deadline${deadline} ran out.`,
      `Lower ${names.maxRequestsPerSecond ?? "maxRequestsPerSecond"}, run fewer operations at once` +
        `${names.parallelism ? ` (${names.parallelism})` : ""}, or raise ${names.retryDeadline ?? "retry.deadlineMs"}.`,
    );
  }
}

/** `120 s`, `1.5 s`. */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Network failure or timeout: no response arrived. `cause` holds the underlying error. */
export class TransportError extends WebhookApiError {
  override readonly name = "TransportError";
  /** The network error code, e.g. `ECONNREFUSED` or `UND_ERR_HEADERS_TIMEOUT`. */
  declare readonly networkCode: string;
  /** @param init.url the instance's base URL, to say which instance did not answer. */
  constructor(init: ErrorInit & { networkCode: string; detail: string; url?: string }) {
    super(
      ErrorCode.Transport,
      init,
      `no response${init.url ? ` from ${init.url}` : ""}${attemptsNote(init.attempts)}: ${init.detail} (${init.networkCode}).`,
      transportHint(init.networkCode),
      { networkCode: init.networkCode },
    );
  }
}

/** What to do about a network failure, by its cause: a refused connection is not a slow instance. */
function transportHint(networkCode: string): string {
  switch (networkCode) {
    case "ECONNREFUSED":
      return "Nothing accepts connections at that address: check the host and port of webhooks:baseUrl, and that the instance is running.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "Check the host name in webhooks:baseUrl, and the machine's DNS.";
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return (
        "Check that the instance is reachable from this machine (webhooks:baseUrl, firewalls, proxies); a slow " +
        "instance needs a longer request timeout (webhooks:requestTimeoutMs, or the client's timeoutMs)."
      );
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "The connection dropped mid-request: check the instance's health and any proxy in between, then run again.";
    default:
      return "Check that the instance is reachable and up (webhooks:baseUrl).";
  }
}

/** 5xx: the service failed. */
export class ServerError extends WebhookApiError {
  override readonly name = "ServerError";
  constructor(init: ErrorInit) {
    super(
      ErrorCode.ServerError,
      init,
      `${statusLine(init.status ?? 500)}${attemptsNote(init.attempts)}: the service failed to handle the request.`,
      "Try again later; if it persists, report it to the operator of the instance with err.body.",
    );
  }
}

/** A response this client cannot interpret: unexpected status, non-JSON body, or schema mismatch. */
export class UnexpectedResponseError extends WebhookApiError {
  override readonly name = "UnexpectedResponseError";
  /** Why the wire schema refused the response, when it was a schema mismatch. */
  declare readonly issues?: readonly z.core.$ZodIssue[];
  constructor(init: ErrorInit & { issues?: readonly z.core.$ZodIssue[]; detail: string }) {
    const issues = init.issues ? `: ${formatIssues(init.issues)}` : "";
    super(
      ErrorCode.UnexpectedResponse,
      init,
      `${statusLine(init.status ?? 0)}: ${init.detail}${issues}.${issues ? "" : serviceSaid(init)}`,
      "The instance may not follow the API contract for this api-version; report it with err.body.",
      { issues: init.issues && withoutSecretInputs(init.issues) },
    );
  }
}

/**
 * Subscribe or Update was sent but its outcome is unknown (response lost, timeout after
 * send, 5xx). It was deliberately not retried: a blind retry could create a duplicate.
 * `cause` holds the failure; the caller must reconcile by reading the subscriptions.
 */
export class AmbiguousResultError extends WebhookApiError {
  override readonly name = "AmbiguousResultError";
  declare readonly cause: WebhookApiError;
  constructor(init: ErrorInit & { cause: WebhookApiError }) {
    const effect = init.operation === "SubscribeToWebhook" ? "created" : "changed";
    super(
      ErrorCode.AmbiguousResult,
      { ...init, status: init.cause.status, body: init.cause.body },
      `the request was sent but its outcome is unknown (${init.cause.reason.replace(/\.$/, "")}), so the subscription ` +
        `may or may not have been ${effect}. It was not retried, to avoid a duplicate.`,
      "List the subscriptions to find out before trying again (the Pulumi provider does this itself).",
    );
  }
}

/**
 * The host stopped the call (its `signal` was aborted, e.g. Terraform's StopProvider on Ctrl-C)
 * while it waited for the rate limiter or a retry's backoff. Nothing more was sent after the
 * attempts it counts, so a 429-refused Subscribe or Update did not take effect.
 */
export class StoppedError extends WebhookApiError {
  override readonly name = "StoppedError";
  /** @param init.rateLimited the last attempt was refused with 429 (the usual reason to be waiting). */
  constructor(init: ErrorInit & { rateLimited: boolean }) {
    super(
      ErrorCode.Stopped,
      init,
      init.attempts
        ? `stopped while ${init.rateLimited ? "rate limited" : "waiting to retry"}; nothing more was sent after attempt ${init.attempts}.`
        : "stopped before the request was sent; nothing was sent.",
      "Run again to finish; the run was interrupted.",
    );
  }
}

/** get, list or update called in legacy mode (2024.1), whose API lacks them. */
export class UnsupportedOperationError extends WebhookApiError {
  override readonly name = "UnsupportedOperationError";
  constructor(init: ErrorInit) {
    super(
      ErrorCode.LegacyUnsupported,
      init,
      `the legacy API (2024.1) has no ${init.operation} operation; it offers only ${LEGACY_OPERATIONS.join(" and ")}.`,
      `Use a configuration api-version (${CONFIGURATION_API_VERSIONS.join(", ")}) for this, e.g. client.withApiVersion("3").`,
    );
  }
}

/** Invalid client settings; names the setting and (unless secret) its value. */
export class ConfigurationError extends WebhookApiError {
  override readonly name = "ConfigurationError";
  /** The setting at fault, e.g. `"baseUrl"` or `"oauth.tokenUrl"`. */
  declare readonly field: string;
  /**
   * @param requirement what the setting must be, e.g. "must be an absolute http(s) URL".
   * @param shown the offending value as it may be displayed; omit for secrets. URL
   *   credentials (userinfo, query values) in it are redacted like everywhere else.
   */
  constructor(field: string, requirement: string, shown?: string) {
    super(
      ErrorCode.Configuration,
      { operation: "Configure" },
      `${field} ${requirement}${shown === undefined ? "" : `, got: ${shown}`}.`,
      "",
      { field },
    );
  }
}

/** `"Webhook: Too big: expected number to be <=5; GUID: Invalid GUID"`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(body)"}: ${issue.message}`)
    .join("; ");
}

/**
 * How the provider fails an operation it did not attempt after the instance refused the run: a
 * pointer to the refusal's own message, which the drift review quotes first.
 */
export const FULL_MESSAGE_ELSEWHERE = "the full message is on the first resource that failed";

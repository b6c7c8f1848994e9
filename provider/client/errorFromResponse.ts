/**
 * The one factory that turns an HTTP response into a typed error: status first, then body
 * (stripe-node's `StripeError.generate` does the same). Callers never pick error classes
 * for responses themselves, so one status always means one class.
 */
import { CLOSED_PACKET_TEXT, WireValidationFailure, decodeValidationMessage, isVersionCannotRepresent } from "../wire";
import {
  ClosedWorkItemError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnreadableRequestError,
  ValidationFailedError,
  VersionCannotRepresentError,
  type AuthKind,
  type ErrorContext,
  type LimitNames,
  type WebhookApiError,
} from "./errors";
import { parseJson } from "./json";

/** What the factory knows about the request besides its response. */
export interface ResponseErrorContext extends ErrorContext {
  /** How the request was authenticated, for the 401 advice. @default "token" */
  readonly auth?: AuthKind;
  /** Where the credential was read, named by a 401's message. */
  readonly credentialSource?: string;
  /** The FilterObjectGUID sent, which names the work item of a closed-packet refusal. */
  readonly filterObjectGuid?: string | null;
  /** How many times the request was sent. */
  readonly attempts?: number;
  /** How a 429's advice names the settings to change. */
  readonly limitNames?: LimitNames;
  /** The retry deadline, said by a 429's message. */
  readonly deadlineMs?: number;
}

/**
 * The typed error for a response that did not succeed: any non-2xx status, or a 2xx POST
 * envelope whose Result is null.
 *
 * @param body the response body as text (it is stored redacted on the error).
 */
export function errorFromResponse(context: ResponseErrorContext, status: number, body: string): WebhookApiError {
  const init = { ...context, status, body };
  switch (status) {
    case 401:
      return new UnauthorizedError({
        ...init,
        auth: context.auth ?? "token",
        credentialSource: context.credentialSource,
      });
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 429:
      return new RateLimitedError({ ...init, limitNames: context.limitNames, deadlineMs: context.deadlineMs });
  }
  if (status >= 500) return new ServerError(init);

  if (status === 400 && body.includes(CLOSED_PACKET_TEXT)) {
    return new ClosedWorkItemError({ ...init, workItemGuid: context.filterObjectGuid ?? undefined });
  }
  const failure = WireValidationFailure.safeParse(parseJson(body));
  if (failure.success) {
    return new ValidationFailedError({ ...init, messages: failure.data.Messages.map(decodeValidationMessage) });
  }
  if (status === 400) {
    return isVersionCannotRepresent(body) ? new VersionCannotRepresentError(init) : new UnreadableRequestError(init);
  }
  const detail =
    status >= 200 && status < 300 ? "the response has no result and no validation messages" : "unexpected status";
  return new UnexpectedResponseError({ ...init, detail });
}

/**
 * The validation rules of Subscribe and Update: a request that was read (it matched the wire
 * schema) but asks for something the service refuses. Each broken rule becomes one validation
 * message with our MessageID (provider/wire/messages.ts, listed in docs/emulator.md).
 */
import {
  EMPTY_GUID,
  formatMessage,
  headerValueProblem,
  isHeaderName,
  isObjectScoped,
  MessageId,
  normalizeGuid,
  normalizeHeaderName,
  reservedHeaderReason,
  subscriberUrlProblem,
  WEBHOOK_SUBSCRIPTION_OBJECT_TYPE,
  webhookName,
  type MessageIdValue,
  type WireSubscribeRequest,
  type WireValidationMessage,
} from "../provider/wire";
import type { StoredSubscription } from "./stateFile";

/** A broken rule before it is tied to a subscription GUID. */
interface Violation {
  id: MessageIdValue;
  template: string;
  parameters: unknown[];
}

/** The all-zero GUID means "no filter" on some instances; treat it as absent. */
function filterGuid(request: WireSubscribeRequest): string | null {
  const guid = request.FilterObjectGUID ?? null;
  return guid === null || guid === EMPTY_GUID ? null : normalizeGuid(guid);
}

function subscriberUrlViolation(url: string | null | undefined): Violation | null {
  const id = MessageId.SubscriberUrlInvalid;
  if (url == null || url === "")
    return { id, template: "SubscriberURL is required: give an absolute http or https URL.", parameters: [] };
  switch (subscriberUrlProblem(url)?.kind) {
    case undefined:
      return null;
    case "whitespace":
      return {
        id,
        template: 'SubscriberURL "{0}" contains whitespace or control characters: percent-encode them.',
        parameters: [url],
      };
    case "credentials":
      // The URL is not echoed: it holds a password.
      return {
        id,
        template:
          "SubscriberURL must not embed credentials (user:password@): send a secret in CustomHeader and CustomHeaderValue.",
        parameters: [],
      };
    default:
      return { id, template: 'SubscriberURL "{0}" is not an absolute http or https URL.', parameters: [url] };
  }
}

function filterViolation(request: WireSubscribeRequest): Violation | null {
  const name = webhookName(request.Webhook);
  const filter = filterGuid(request);
  if (isObjectScoped(request.Webhook) && filter === null) {
    return {
      id: MessageId.FilterObjectGuidRequired,
      template:
        "FilterObjectGUID is required for {0} subscriptions (Webhook {1}): give the GUID of the object to watch.",
      parameters: [name, request.Webhook],
    };
  }
  if (!isObjectScoped(request.Webhook) && filter !== null) {
    return {
      id: MessageId.FilterObjectGuidNotUsed,
      template:
        'FilterObjectGUID "{0}" cannot scope a {1} subscription (Webhook {2}), which covers a whole object type: leave it out.',
      parameters: [request.FilterObjectGUID, name, request.Webhook],
    };
  }
  return null;
}

function customHeaderViolations(request: WireSubscribeRequest): Violation[] {
  const header = request.CustomHeader ?? "";
  const violations: Violation[] = [];
  if (request.CustomHeaderValue != null && header === "") {
    violations.push({
      id: MessageId.CustomHeaderValueWithoutName,
      template: "CustomHeaderValue was sent without a CustomHeader: name the header the value goes in.",
      parameters: [],
    });
  }
  const saved = normalizeHeaderName(header);
  if (header !== "" && !isHeaderName(saved)) {
    violations.push({
      id: MessageId.CustomHeaderInvalid,
      template: 'CustomHeader "{0}" (saved as "{1}") is not a valid HTTP header name.',
      parameters: [header, saved],
    });
  }
  const reserved = header === "" ? undefined : reservedHeaderReason(saved);
  if (reserved !== undefined) {
    violations.push({
      id: MessageId.CustomHeaderReserved,
      template: 'CustomHeader "{0}" cannot be set by a subscription: {1}. Choose another name, e.g. "X-Api-Key".',
      parameters: [saved, reserved],
    });
  }
  const valueProblem = request.CustomHeaderValue == null ? undefined : headerValueProblem(request.CustomHeaderValue);
  if (valueProblem !== undefined) {
    // The value is a secret: name the problem, never the value.
    violations.push({
      id: MessageId.CustomHeaderValueInvalid,
      template: "CustomHeaderValue contains {0}, which an HTTP header value cannot carry.",
      parameters: [valueProblem],
    });
  }
  return violations;
}

/**
 * Every rule the request breaks, as validation messages about the subscription `relatedGuid`
 * (for Subscribe, a GUID allocated for the subscription that is not created).
 */
export function validateSubscription(request: WireSubscribeRequest, relatedGuid: string): WireValidationMessage[] {
  const violations = [
    subscriberUrlViolation(request.SubscriberURL),
    filterViolation(request),
    ...customHeaderViolations(request),
  ];
  return violations
    .filter((violation): violation is Violation => violation !== null)
    .map((violation) => ({
      IsError: true,
      MessageDescription: formatMessage(violation.template, violation.parameters),
      Parameters: violation.parameters,
      RelatedObjectGUID: relatedGuid,
      RelatedObjectType: WEBHOOK_SUBSCRIPTION_OBJECT_TYPE,
      MessageID: violation.id,
    }));
}

/** True when the request is a PacketUpdated subscription on a work item declared Closed. */
export function targetsClosedPacket(request: WireSubscribeRequest, isClosed: (guid: string) => boolean): boolean {
  const filter = filterGuid(request);
  return webhookName(request.Webhook) === "PacketUpdated" && filter !== null && isClosed(filter);
}

/**
 * The subscription a valid request describes, as saved: header spaces become hyphens,
 * absent optional values become "" and null, GUIDs lower-case.
 */
export function buildSubscription(request: WireSubscribeRequest, guid: string, signature: string): StoredSubscription {
  return {
    GUID: normalizeGuid(guid),
    Webhook: request.Webhook,
    FilterObjectGUID: filterGuid(request),
    FilterObjectType: request.FilterObjectType,
    // Only called after validateSubscription found no message, so the URL is present.
    SubscriberURL: request.SubscriberURL ?? "",
    Signature: normalizeGuid(signature),
    CustomHeader: normalizeHeaderName(request.CustomHeader ?? ""),
    CustomHeaderValue: request.CustomHeaderValue ?? null,
  };
}

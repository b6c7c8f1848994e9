/**
 * Validation rules and their message identifiers. The spec does not list the service's
 * MessageIDs, so these are ours (documented in docs/emulator.md); the client only relies on
 * them to say which rule failed, and treats unknown IDs as informational text.
 */
export const MessageId = {
  /** SubscriberURL is missing, not an absolute http/https URL, holds whitespace or embeds credentials. */
  SubscriberUrlInvalid: 1001,
  /** FilterObjectGUID is missing for an object-scoped event. */
  FilterObjectGuidRequired: 1002,
  /** FilterObjectGUID was sent for a type-scoped event, which it cannot scope. */
  FilterObjectGuidNotUsed: 1003,
  /** CustomHeaderValue was sent without a CustomHeader name. */
  CustomHeaderValueWithoutName: 1004,
  /** CustomHeader is not a valid HTTP header name (after spaces become hyphens). */
  CustomHeaderInvalid: 1005,
  /** CustomHeader names a header the service or HTTP sets itself (Host, Content-Type, the signature header, …). */
  CustomHeaderReserved: 1006,
  /** CustomHeaderValue holds a line break, NUL, another control character or a character beyond Latin-1. */
  CustomHeaderValueInvalid: 1007,
  /** The instance holds as many subscriptions as it allows (the emulator's `maxSubscriptions`). */
  SubscriptionLimitReached: 1010,
} as const;
export type MessageIdValue = (typeof MessageId)[keyof typeof MessageId];

/** The plain-text body of the 400 for a PacketUpdated subscription on a Closed work item. */
export const CLOSED_PACKET_TEXT = "Cannot create subscription for a closed packet.";

/** Fills `{0}`, `{1}`, … in a message template from its Parameters. */
export function formatMessage(template: string, parameters: readonly unknown[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = parameters[Number(index)];
    return value === undefined ? whole : String(value);
  });
}

/**
 * The 400 body text when the called api-version has no enumeration member for a value the
 * service must return (spec, Errors). The spec shows no wording; this is the one the emulator
 * uses, and `isVersionCannotRepresent` recognises it together with likely real-world phrasings.
 */
export function versionCannotRepresentText(apiVersion: string, field: string, value: number): string {
  return `api-version ${apiVersion} has no enumeration member for ${field} value ${value}; call a newer api-version.`;
}

/** True when an error body says the called api-version cannot represent a value. */
export function isVersionCannotRepresent(text: string): boolean {
  return /enum(eration)? member/i.test(text) || (/\benum/i.test(text) && /api[- ]?version/i.test(text));
}

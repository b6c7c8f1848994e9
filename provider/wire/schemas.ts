/**
 * zod schemas of the service's PascalCase wire format. This folder is the only code that
 * knows the wire shapes; the emulator validates requests with the same schemas the client
 * encodes with, so the two cannot silently disagree.
 */
import { z } from "zod";

/** A GUID in its canonical 8-4-4-4-12 hexadecimal form (any version; .NET GUIDs are not all RFC 4122). */
export const WireGuid = z.guid();

/** Whether `value` is a GUID by the wire's rule (`WireGuid`). */
export function isGuid(value: unknown): value is string {
  // zod's own pattern of z.guid(), tested directly: this runs on every call the client sends.
  return typeof value === "string" && z.regexes.guid.test(value);
}

/** The all-zero GUID some instances send instead of null for "no filter". */
export const EMPTY_GUID = "00000000-0000-0000-0000-000000000000";

/** Webhook event integer as the request accepts it: only the six known members. */
export const WireWebhookRequest = z.int().min(0).max(5);

/** Service object type enumeration: members not shown in the spec, so any non-negative integer. */
export const WireObjectType = z.int().min(0);

/**
 * Body of SubscribeToWebhook. Strict: an unrecognised field makes the body unreadable (spec).
 * Which fields are required per event is a validation rule, not a shape rule (see rules in the emulator).
 */
export const WireSubscribeRequest = z.strictObject({
  Webhook: WireWebhookRequest,
  FilterObjectType: WireObjectType,
  FilterObjectGUID: WireGuid.nullable().optional(),
  SubscriberURL: z.string().nullable().optional(),
  CustomHeader: z.string().nullable().optional(),
  CustomHeaderValue: z.string().nullable().optional(),
});
export type WireSubscribeRequest = z.infer<typeof WireSubscribeRequest>;

/** Body of UpdateWebhookSubscription: the Subscribe fields plus the GUID of the subscription. */
export const WireUpdateRequest = WireSubscribeRequest.extend({ GUID: WireGuid });
export type WireUpdateRequest = z.infer<typeof WireUpdateRequest>;

/**
 * A subscription as the service returns it. Not strict: new nullable properties are a
 * non-breaking change (spec, Versioning), and Webhook may be a member newer than this package.
 */
export const WireSubscription = z.object({
  GUID: WireGuid,
  Webhook: z.int(),
  FilterObjectGUID: WireGuid.nullable().optional(),
  FilterObjectType: z.int(),
  SubscriberURL: z.string(),
  Signature: z.string().min(1),
  CustomHeader: z.string().nullable().optional(),
  CustomHeaderValue: z.string().nullable().optional(),
});
export type WireSubscription = z.infer<typeof WireSubscription>;

/** One validation message of a failed POST. RelatedObjectType is outside the version freeze: any integer. */
export const WireValidationMessage = z.object({
  IsError: z.boolean(),
  MessageDescription: z.string(),
  Parameters: z.array(z.unknown()),
  RelatedObjectGUID: WireGuid.nullable().optional(),
  RelatedObjectType: z.int().nullable().optional(),
  MessageID: z.int(),
});
export type WireValidationMessage = z.infer<typeof WireValidationMessage>;

/**
 * The envelope of the POST operations (spec): Result is the subscription, `true`, or null on
 * failure. Responses are read through `responses.ts`, which also accepts the shapes without it.
 */
export type WireEnvelope<T> = { Result: T | null; Messages: WireValidationMessage[] };
/** A 400 whose body is an envelope with messages: the request was read but broke a rule. */
export const WireValidationFailure = z.object({
  Result: z.null(),
  Messages: z.array(WireValidationMessage).min(1),
});

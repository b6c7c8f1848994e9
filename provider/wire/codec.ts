/**
 * The one codec between the public camelCase types and the PascalCase wire format.
 * Nothing else builds wire objects; everything that reads them goes through `decode*`.
 */
import type { z } from "zod";
import {
  EMPTY_GUID,
  WireSubscription,
  type WireSubscribeRequest,
  type WireUpdateRequest,
  type WireValidationMessage,
} from "./schemas";
import type { WebhookId } from "./webhook";

/** What a caller asks for: the desired fields of a subscription, camelCase, enums as integers. */
export interface SubscriptionSpec {
  webhook: WebhookId;
  filterObjectType: number;
  /** Null (or absent) for the two type-scoped events. */
  filterObjectGuid?: string | null;
  subscriberUrl: string;
  customHeader?: string | null;
  customHeaderValue?: string | null;
}

/** A subscription as the service holds it, normalised: nothing undefined, empty filter as null. */
export interface Subscription {
  guid: string;
  /** The event integer; may be a member newer than this package when read from the instance. */
  webhook: number;
  filterObjectType: number;
  filterObjectGuid: string | null;
  subscriberUrl: string;
  /** Secret: sent in `x-<product>-signature` of every message. */
  signature: string;
  /** `""` when none. */
  customHeader: string;
  /** Secret; null when none. */
  customHeaderValue: string | null;
}

/** Encodes a spec as the SubscribeToWebhook body. Optional fields are omitted, never sent as undefined. */
export function encodeSubscribe(spec: SubscriptionSpec): WireSubscribeRequest {
  const body: WireSubscribeRequest = {
    Webhook: spec.webhook,
    FilterObjectType: spec.filterObjectType,
    SubscriberURL: spec.subscriberUrl,
  };
  if (spec.filterObjectGuid) body.FilterObjectGUID = spec.filterObjectGuid;
  if (spec.customHeader) body.CustomHeader = spec.customHeader;
  if (spec.customHeaderValue != null) body.CustomHeaderValue = spec.customHeaderValue;
  return body;
}

/** Encodes a spec as the UpdateWebhookSubscription body for the subscription `guid`. */
export function encodeUpdate(guid: string, spec: SubscriptionSpec): WireUpdateRequest {
  return { GUID: guid, ...encodeSubscribe(spec) };
}

/** GUIDs compare case-insensitively on the service; we keep them lower-case everywhere. */
export function normalizeGuid(guid: string): string {
  return guid.toLowerCase();
}

/** Maps a validated wire subscription to the public shape, normalising the all-zero GUID to null. */
export function decodeSubscription(wire: z.infer<typeof WireSubscription>): Subscription {
  const filter = wire.FilterObjectGUID ?? null;
  return {
    guid: normalizeGuid(wire.GUID),
    webhook: wire.Webhook,
    filterObjectType: wire.FilterObjectType,
    filterObjectGuid: filter === null || filter === EMPTY_GUID ? null : normalizeGuid(filter),
    subscriberUrl: wire.SubscriberURL,
    signature: wire.Signature,
    customHeader: wire.CustomHeader ?? "",
    customHeaderValue: wire.CustomHeaderValue ?? null,
  };
}

/** One reason a POST was rejected, camelCase. `relatedObjectType` may be a value this package does not know. */
export interface ValidationMessage {
  messageId: number;
  description: string;
  parameters: unknown[];
  isError: boolean;
  relatedObjectGuid: string | null;
  relatedObjectType: number | null;
}

/** Maps a validated wire validation message to the public shape. */
export function decodeValidationMessage(wire: WireValidationMessage): ValidationMessage {
  return {
    messageId: wire.MessageID,
    description: wire.MessageDescription,
    parameters: wire.Parameters,
    isError: wire.IsError,
    relatedObjectGuid: wire.RelatedObjectGUID == null ? null : normalizeGuid(wire.RelatedObjectGUID),
    relatedObjectType: wire.RelatedObjectType ?? null,
  };
}

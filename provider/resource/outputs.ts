/**
 * The state a WebhookSubscription keeps: every input, normalised, plus what the service
 * allocated. Never `undefined` (the engine rejects it): "none" is null or "" as the service says it.
 */
import { webhookName, type Subscription } from "../wire";

export interface SubscriptionOutputs {
  guid: string;
  /** Secret (additionalSecretOutputs). */
  signature: string;
  webhook: number;
  /** The event's name, for people reading state and diffs; null for a member newer than this package. */
  webhookName: string | null;
  filterObjectType: number;
  filterObjectGuid: string | null;
  subscriberUrl: string;
  customHeader: string;
  /** Secret (additionalSecretOutputs); null when none. */
  customHeaderValue: string | null;
  /** The GUID this resource adopted instead of creating, or null. */
  adoptGuid: string | null;
  /**
   * The instance the subscription lives on: its normalised base URL. Absent in state written
   * before it was recorded, until the next refresh or update.
   */
  baseUrl: string;
}

/** Outputs from the live subscription. */
export function outputsOf(live: Subscription, adoptGuid: string | null, baseUrl: string): SubscriptionOutputs {
  return {
    guid: live.guid,
    signature: live.signature,
    webhook: live.webhook,
    webhookName: webhookName(live.webhook) ?? null,
    filterObjectType: live.filterObjectType,
    filterObjectGuid: live.filterObjectGuid,
    subscriberUrl: live.subscriberUrl,
    customHeader: live.customHeader,
    customHeaderValue: live.customHeaderValue,
    adoptGuid,
    baseUrl,
  };
}

/**
 * Inputs that describe the live subscription, for refresh: the next diff then compares the
 * program with what really exists, not with what we last wrote.
 */
export function inputsOf(live: Subscription, adoptGuid: string | null): Record<string, unknown> {
  const inputs: Record<string, unknown> = {
    webhook: live.webhook,
    filterObjectType: live.filterObjectType,
    subscriberUrl: live.subscriberUrl,
  };
  if (live.filterObjectGuid !== null) inputs.filterObjectGuid = live.filterObjectGuid;
  if (live.customHeader !== "") inputs.customHeader = live.customHeader;
  if (live.customHeaderValue !== null) inputs.customHeaderValue = live.customHeaderValue;
  if (adoptGuid !== null) inputs.adoptGuid = adoptGuid;
  return inputs;
}

/**
 * Unmanaged subscriptions: every live subscription whose GUID the stack's state does not hold
 * (the list operation returns the whole instance, not only what this stack created).
 */
import { webhookName, type Subscription } from "../provider/wire";
import type { UnmanagedSubscription } from "./report";
import { adoptionSnippet, type AdoptionTarget } from "./snippet";
import { guidKey } from "./stateSnapshot";

/**
 * The live subscriptions not in `stateGuids` (lower-case GUIDs), described without their secrets.
 * @param where the instance they were listed on, for reviews of several instances: its base URL
 *   and how to adopt onto it (the front door, the stack, the explicit provider reaching it or
 *   null for the default provider). Without it: a TypeScript snippet for the default provider.
 * @param pendingCreates the URN of the pending create each orphan of a killed run matches, by its GUID.
 */
export function unmanagedSubscriptions(
  live: readonly Subscription[],
  stateGuids: ReadonlySet<string>,
  where?: { readonly baseUrl: string; readonly adoption: AdoptionTarget },
  pendingCreates: ReadonlyMap<string, string> = new Map(),
): UnmanagedSubscription[] {
  return live
    .filter((s) => !stateGuids.has(guidKey(s.guid)))
    .map((s) => ({
      ...(where ? { baseUrl: where.baseUrl, provider: where.adoption.provider?.name ?? null } : {}),
      guid: s.guid,
      webhook: s.webhook,
      webhookName: webhookName(s.webhook) ?? null,
      filterObjectType: s.filterObjectType,
      filterObjectGuid: s.filterObjectGuid,
      subscriberUrl: s.subscriberUrl,
      customHeader: s.customHeader,
      hasCustomHeaderValue: s.customHeaderValue !== null,
      ...adoptionSnippet(s, where?.adoption ?? DEFAULT_ADOPTION),
      ...(pendingCreates.has(s.guid) ? { pendingCreate: pendingCreates.get(s.guid)! } : {}),
    }));
}

/** A TypeScript snippet for the default provider (which names no stack). */
const DEFAULT_ADOPTION: AdoptionTarget = { frontDoor: "dynamic", stack: "", provider: null };

/**
 * Unmanaged subscriptions: every live subscription whose GUID the stack's state does not hold
 * (the list operation returns the whole instance, not only what this stack created).
 */
import { webhookName, type Subscription } from "../provider/wire";
import type { UnmanagedSubscription } from "./report";
import { adoptSnippet } from "./snippet";
import { guidKey } from "./stateSnapshot";

/**
 * The live subscriptions not in `stateGuids` (lower-case GUIDs), described without their secrets.
 * @param where the instance they were listed on, for reviews of several instances: its base URL
 *   and the `Provider` that reaches it (null = the default provider), used in the adopt snippet.
 */
export function unmanagedSubscriptions(
  live: readonly Subscription[],
  stateGuids: ReadonlySet<string>,
  where?: { readonly baseUrl: string; readonly provider: string | null },
): UnmanagedSubscription[] {
  return live
    .filter((s) => !stateGuids.has(guidKey(s.guid)))
    .map((s) => ({
      ...(where ? { baseUrl: where.baseUrl, provider: where.provider } : {}),
      guid: s.guid,
      webhook: s.webhook,
      webhookName: webhookName(s.webhook) ?? null,
      filterObjectType: s.filterObjectType,
      filterObjectGuid: s.filterObjectGuid,
      subscriberUrl: s.subscriberUrl,
      customHeader: s.customHeader,
      hasCustomHeaderValue: s.customHeaderValue !== null,
      snippet: adoptSnippet(s, where?.provider ?? null),
    }));
}

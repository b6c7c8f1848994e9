/**
 * Duplicates: two live subscriptions with the same event, filter, URL and header name deliver
 * every message twice. Adopting both would put the double delivery under code, so they are named
 * before anything is adopted, with the request that removes the extra one, and only the one to
 * keep is adopted unless `--include-duplicates` asks for all of them. The one kept is one a
 * source already claims, else the first the instance lists.
 */
import { naturalKey } from "../provider/model";
import { CONFIGURATION_PATH, type Subscription } from "../provider/wire";
import { guidKey, shellWord } from "../drift";

/** One set of duplicates among an instance's live subscriptions. */
export interface DuplicateGroup {
  readonly baseUrl: string;
  /** The instance's API version, for the request that removes an extra. */
  readonly apiVersion: string;
  /** The one kept: claimed by a source, else the first listed. */
  readonly keep: Subscription;
  /** Whether a source already manages the one kept. */
  readonly keepManaged: boolean;
  /** The others, each to be removed. */
  readonly extras: readonly Subscription[];
}

/**
 * The groups of duplicates on `baseUrl` that hold at least one of `chosen` (the subscriptions
 * about to be adopted); `claimed` holds the GUID keys the sources already manage.
 */
export function duplicateGroups(
  { baseUrl, apiVersion }: { readonly baseUrl: string; readonly apiVersion: string },
  live: readonly Subscription[],
  chosen: ReadonlySet<string>,
  claimed: ReadonlySet<string>,
): DuplicateGroup[] {
  const byKey = new Map<string, Subscription[]>();
  for (const s of live) byKey.set(naturalKey(s), [...(byKey.get(naturalKey(s)) ?? []), s]);
  return [...byKey.values()]
    .filter((group) => group.length > 1 && group.some((s) => chosen.has(guidKey(s.guid))))
    .map((group) => {
      const keep = group.find((s) => claimed.has(guidKey(s.guid))) ?? group[0]!;
      return {
        baseUrl,
        apiVersion,
        keep,
        keepManaged: claimed.has(guidKey(keep.guid)),
        extras: group.filter((s) => s !== keep),
      };
    });
}

/**
 * The request that deletes `guid` (the service has no screen): its Unsubscribe, with the token
 * from the environment, never written here.
 */
export function removeCommand(baseUrl: string, guid: string, apiVersion: string): string {
  const url = `${baseUrl.replace(/\/+$/, "")}${CONFIGURATION_PATH}/Unsubscribe?api-version=${apiVersion}&webHookSubscriptionGUID=${guid}`;
  return `curl -fsS -X POST -H "Authorization: Bearer $WEBHOOKS_TOKEN" ${shellWord(url)}`;
}

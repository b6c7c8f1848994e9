/**
 * GUIDs as the review compares them, and the one rule `--ignore`, `--ignore-file` and `adopt
 * --match` share for naming subscriptions: a GUID, or a prefix of the subscriber URL.
 */
import type { Subscription } from "../../provider/wire";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A GUID as a key: GUIDs are case-insensitive, and the tools and the service spell them either way. */
export function guidKey(guid: string): string {
  return guid.toLowerCase();
}

/** Whether `text` is a subscription GUID (any case). */
export function isGuid(text: string): boolean {
  return GUID.test(text);
}

/** Whether `rule` is an absolute http(s) URL prefix naming a host: `https://` alone would match every subscription. */
export function isUrlPrefix(rule: string): boolean {
  return /^https?:\/\/[^/]/i.test(rule);
}

/** The scheme and host in lower case, as URLs compare them; the rest as it is. */
function comparable(url: string): string {
  const end = url.indexOf("/", url.indexOf("//") + 2);
  return end < 0 ? url.toLowerCase() : `${url.slice(0, end).toLowerCase()}${url.slice(end)}`;
}

/** Whether `rule` (a GUID or a URL prefix) names `live`: its GUID in any case, or its URL's start. */
export function matchesGuidOrPrefix(rule: string, live: Pick<Subscription, "guid" | "subscriberUrl">): boolean {
  return isGuid(rule)
    ? guidKey(rule) === guidKey(live.guid)
    : comparable(live.subscriberUrl).startsWith(comparable(rule));
}

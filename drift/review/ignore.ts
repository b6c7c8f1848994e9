/**
 * The ignore list of a drift review: subscriptions deliberately managed elsewhere (another
 * tool, a team without a stack). A rule is a GUID, or a prefix of the subscriber URL.
 */
import type { Subscription } from "../../provider/wire";
import { isGuid, isUrlPrefix, matchesGuidOrPrefix } from "./guid";

/** Whether `live` matches a rule: its GUID (any case), or a subscriber URL starting with the rule. */
export function isIgnored(live: Pick<Subscription, "guid" | "subscriberUrl">, rules: readonly string[]): boolean {
  return rules.some((rule) => matchesGuidOrPrefix(rule, live));
}

/** Checks the rules: a GUID or an absolute http(s) URL prefix; returns the first bad one's message. */
export function invalidIgnoreRule(rules: readonly string[]): string | undefined {
  const bad = rules.find((rule) => !isGuid(rule) && !isUrlPrefix(rule));
  return bad === undefined
    ? undefined
    : `--ignore must be a subscription GUID or a subscriber-URL prefix such as "https://hooks.example.com/legacy/", got: ${JSON.stringify(bad)}`;
}

/**
 * `--match`: which unmanaged subscriptions to adopt. A rule is a GUID, a subscriber-URL prefix
 * (`http://` or `https://`), or an event name (`PacketCreated`); a subscription is adopted when
 * any rule matches it. A rule that matches nothing is a mistake to say, not a quiet no-op.
 */
import { isGuid, isUrlPrefix, matchesGuidOrPrefix } from "../drift";
import { WEBHOOK_NAMES, webhookName, type Subscription } from "../provider/wire";

/** What is wrong with `rule`, or undefined when it is one of the three kinds. */
export function invalidMatchRule(rule: string): string | undefined {
  if (isGuid(rule) || isUrlPrefix(rule) || (WEBHOOK_NAMES as readonly string[]).includes(rule)) return undefined;
  return (
    `--match ${JSON.stringify(rule)} is not a GUID, a subscriber-URL prefix naming a host (https://hooks.example.com/) ` +
    `or an event name (${WEBHOOK_NAMES.join(", ")})`
  );
}

/** Whether `rule` (already valid) matches `s`: a GUID or a URL prefix as `--ignore` matches, else its event. */
export function matches(rule: string, s: Pick<Subscription, "guid" | "subscriberUrl" | "webhook">): boolean {
  if (isGuid(rule) || isUrlPrefix(rule)) return matchesGuidOrPrefix(rule, s);
  return webhookName(s.webhook) === rule;
}

/** The subscriptions any rule matches (all of them without rules), and the rules that matched none. */
export function selectByRules<T extends Pick<Subscription, "guid" | "subscriberUrl" | "webhook">>(
  candidates: readonly T[],
  rules: readonly string[],
): { readonly chosen: T[]; readonly unmatched: string[] } {
  if (rules.length === 0) return { chosen: [...candidates], unmatched: [] };
  return {
    chosen: candidates.filter((s) => rules.some((r) => matches(r, s))),
    unmatched: rules.filter((r) => !candidates.some((s) => matches(r, s))),
  };
}

/**
 * Co-ownership: one subscription GUID recorded by more than one stack. A destroy of either stack
 * unsubscribes it for both, so each is a finding of the multi-stack review
 * (`drift --stack a --stack b`), whatever front door each stack uses.
 */
import type { CoOwnedSubscription } from "./report";
import { shellWord } from "./shellWord";
import { guidKey, type StateSubscription } from "./stateSnapshot";

/** A stack's managed subscriptions, as its state records them. */
export interface StackSubscriptions {
  readonly stack: string;
  readonly managed: readonly Pick<StateSubscription, "urn" | "name" | "guid">[];
}

/** The subscriptions `reviewed` manages that another stack's state records too, sorted by GUID. */
export function coOwnedSubscriptions(
  reviewed: StackSubscriptions,
  others: readonly StackSubscriptions[],
): CoOwnedSubscription[] {
  const found: CoOwnedSubscription[] = [];
  for (const own of reviewed.managed) {
    const also = others.flatMap((other) =>
      other.managed
        .filter((s) => guidKey(s.guid) === guidKey(own.guid))
        .map((s) => ({ stack: other.stack, urn: s.urn, name: s.name })),
    );
    if (also.length === 0) continue;
    const owners = [{ stack: reviewed.stack, urn: own.urn, name: own.name }, ...also];
    found.push({ guid: own.guid, owners, advice: advice(own.guid, owners) });
  }
  return found.sort((a, b) => a.guid.localeCompare(b.guid));
}

/** What to do: keep it in one stack; the others forget it and create their own. */
function advice(guid: string, owners: CoOwnedSubscription["owners"]): string {
  const [keeper, ...rest] = owners;
  return (
    `${guid} is recorded by ${owners.map((o) => `stack "${o.stack}" (${o.name})`).join(" and ")}: a destroy of either unsubscribes it for both. ` +
    `Keep it in one stack, e.g. "${keeper!.stack}". In ${rest.map((o) => `"${o.stack}"`).join(", ")}, remove it from the state without deleting it ` +
    `(${rest.map((o) => `\`pulumi state delete ${shellWord(o.urn)} --stack ${shellWord(o.stack)} --yes\``).join("; ")}), ` +
    "then run `pulumi up` there: it creates a subscription of its own (or give it a different subscriberUrl or customHeader, or remove it from the program)."
  );
}

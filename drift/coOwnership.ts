/**
 * Co-ownership: one subscription GUID recorded by more than one stack, or by a stack and a
 * Terraform/OpenTofu state (`--terraform-state`). A destroy by either owner unsubscribes it for
 * both, so each is a finding of the review, whatever front door or tool each owner uses.
 */
import type { CoOwnedSubscription, SubscriptionOwner } from "./report";
import { shellWord } from "./shellWord";
import { guidKey, type StateSubscription } from "./stateSnapshot";

/** A stack's managed subscriptions, as its state records them (or a Terraform state's: `tool`). */
export interface StackSubscriptions {
  /** The stack's name, or the Terraform state file as given. */
  readonly stack: string;
  /** `terraform` for a Terraform/OpenTofu state, whose `urn` and `name` are resource addresses. @default a Pulumi stack */
  readonly tool?: "terraform";
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
        .map((s) => ({ stack: other.stack, urn: s.urn, name: s.name, ...(other.tool ? { tool: other.tool } : {}) })),
    );
    if (also.length === 0) continue;
    const owners = [{ stack: reviewed.stack, urn: own.urn, name: own.name }, ...also];
    found.push({ guid: own.guid, owners, advice: coOwnershipAdvice(own.guid, owners) });
  }
  return found.sort((a, b) => a.guid.localeCompare(b.guid));
}

/** An owner as a sentence names it. */
function ownerName(owner: SubscriptionOwner): string {
  return owner.tool === "terraform"
    ? `Terraform state "${owner.stack}" (${owner.name})`
    : `stack "${owner.stack}" (${owner.name})`;
}

/** The command that makes `owner` forget the subscription without deleting it. */
function forgetCommand(owner: SubscriptionOwner): string {
  return owner.tool === "terraform"
    ? `\`tofu state rm ${shellWord(owner.urn)}\` (or \`terraform state rm\`) in the configuration of ${owner.stack}`
    : `\`pulumi state delete ${shellWord(owner.urn)} --stack ${shellWord(owner.stack)} --yes\``;
}

/** What to do: keep it with one owner; the others forget it and create their own. */
export function coOwnershipAdvice(guid: string, owners: CoOwnedSubscription["owners"]): string {
  const [keeper, ...rest] = owners;
  return (
    `${guid} is recorded by ${owners.map(ownerName).join(" and ")}: a destroy of either unsubscribes it for both. ` +
    `Keep it in one, e.g. ${ownerName(keeper!)}. In ${rest.map(ownerName).join(", ")}, remove it from the state without deleting it ` +
    `(${rest.map(forgetCommand).join("; ")}), ` +
    "then apply there (`pulumi up`, `tofu apply`): it creates a subscription of its own (or give it a different subscriberUrl or customHeader, or remove it from the program or configuration)."
  );
}

/**
 * What to do about a co-owned subscription: one GUID claimed by two sources (two stacks, a stack
 * and a Terraform state, …), or by two resources of one. A destroy by either owner unsubscribes it
 * for both, whatever front door or tool each owner uses.
 */
import type { SourceRef } from "./model";
import { shellWord } from "./shellWord";

/** One claim of a co-owned subscription: the source, the resource's address and its name. */
export interface ClaimingResource {
  readonly source: SourceRef;
  readonly address: string;
  readonly name: string;
}

/** An owner as a sentence names it. */
function ownerName({ source, name }: ClaimingResource): string {
  return source.kind === "pulumi-stack"
    ? `stack "${source.name}" (${name})`
    : `Terraform ${source.kind === "terraform-directory" ? "directory" : "state"} "${source.name}" (${name})`;
}

/**
 * The steps that release the subscription from `owner` without deleting it: its tool forgets it
 * (`--force`: an imported resource is protected, and `pulumi state delete` refuses it without),
 * then its declaration goes, or the next apply there creates a subscription of its own.
 */
function releaseSteps({ source, address }: ClaimingResource): string {
  if (source.kind === "pulumi-stack")
    return (
      `\`pulumi state delete ${shellWord(address)} --stack ${shellWord(source.name)} --force --yes\`, ` +
      `then remove its declaration from the program of stack ${source.name}`
    );
  if (source.kind === "terraform-directory")
    return (
      `replace its \`resource\` block in ${source.name} with a \`removed { from = ${address} lifecycle { destroy = false } }\` block and apply ` +
      `(or \`tofu -chdir=${shellWord(source.name)} state rm ${shellWord(address)}\`, then remove the block)`
    );
  return `\`tofu state rm ${shellWord(address)}\` in the configuration whose state ${source.name} is, then remove its block there`;
}

/**
 * What to do: keep it with one owner and release it from the others, in either direction; nothing
 * is deleted on the instance. Creating a second one instead would make a duplicate.
 */
export function coOwnershipAdvice(guid: string, owners: readonly ClaimingResource[]): string {
  const ways = owners.map(
    (keeper) =>
      `to keep it in ${ownerName(keeper)}, release it from ` +
      owners
        .filter((o) => o !== keeper)
        .map((o) => `${ownerName(o)}: ${releaseSteps(o)}`)
        .join("; and from "),
  );
  return (
    `${guid} is recorded by ${owners.map(ownerName).join(" and ")}: a destroy of either unsubscribes it for both. ` +
    `Keep it in one owner and release it from the others without deleting it: ${ways.join(". Or, ")}.`
  );
}

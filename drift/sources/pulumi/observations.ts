/**
 * What the stack's own engine found, as a person reads it, each with what to do: a managed
 * subscription that differs from the state or is gone (the refresh), and one that differs from the
 * program (the program's preview). A secret is named, never shown.
 *
 * A plain `pulumi up` repairs neither a change out of band nor a deletion: it compares the program
 * with the state, which still records the declared values, so it sees nothing to do. Only a
 * refresh, before the update (`--refresh`) or instead of it, looks at the instance.
 */
import type { FindingLocation } from "../../review/model";
import { shellWord } from "../../review/shellWord";
import type { Claim, Observation } from "../source";
import type { ManagedVerdict } from "./classifyManaged";
import type { ProgramDifference } from "./programDifferences";

/**
 * Everything the stack's engine found about its subscriptions, each pointed at its claim's
 * location. A resource the program no longer declares is not where the state saw it last, and
 * one the state does not hold has no claim: `locate` finds those by name.
 */
export function stackObservations(
  found: { readonly verdicts: readonly ManagedVerdict[]; readonly differences: readonly ProgramDifference[] },
  stack: string,
  claims: readonly Claim[],
  locate: (name: string) => FindingLocation,
): Observation[] {
  const claimedAt = new Map(claims.map((c) => [c.address, c.location]));
  return [
    ...found.verdicts.flatMap((v) => stateObservations(v, stack, claimedAt.get(v.urn) ?? locate(v.name))),
    ...found.differences.map((d) =>
      programObservation(d, stack, (d.step === "delete" ? undefined : claimedAt.get(d.urn)) ?? locate(d.name)),
    ),
  ];
}

/** `pulumi <words> --stack <stack>`, quoted for the shell, as advice names it. */
function pulumi(words: string, stack: string): string {
  return `\`pulumi ${words} --stack ${shellWord(stack)}\``;
}

/** Why a plain `pulumi up` is not the remedy; see the module comment. */
const PLAIN_UP =
  "A plain `pulumi up` does not repair it: it compares the program with the state, not with the instance.";

/** What the refresh found about one managed subscription of `stack`: nothing when it is in sync. */
function stateObservations(verdict: ManagedVerdict, stack: string, location: FindingLocation): Observation[] {
  const { urn: address, name, guid } = verdict;
  if (verdict.status === "deleted")
    return [
      {
        class: "deleted",
        address,
        guid,
        fields: [],
        message: `${name} (${guid}) is recorded in the state but no longer exists on the instance.`,
        advice:
          `${pulumi("up --refresh", stack)} creates it again as declared; ${pulumi("refresh", stack)} drops it from the state ` +
          `(then remove it from the program). ${PLAIN_UP}`,
        location,
      },
    ];
  if (verdict.status === "in-sync") return [];
  return [
    {
      class: "differs-from-state",
      address,
      guid,
      fields: verdict.changes,
      message: `${name} (${guid}) differs from the state in ${verdict.changes.map((c) => c.field).join(", ")}.`,
      advice:
        `${pulumi("up --refresh", stack)} puts the declared values back; ${pulumi("refresh", stack)} accepts the live ones ` +
        `(then change the program to match). ${PLAIN_UP}`,
      location,
    },
  ];
}

/** What the program's preview found about one subscription of `stack`. */
function programObservation(d: ProgramDifference, stack: string, location: FindingLocation): Observation {
  const what =
    d.step === "create"
      ? "is declared by the program but does not exist on the instance"
      : d.step === "delete"
        ? "exists and is recorded, but the program no longer declares it"
        : `differs from the program in ${d.fields.map((c) => c.field).join(", ")} (\`pulumi up\` would ${d.step} it)`;
  return {
    class: "differs-from-program",
    address: d.urn,
    guid: d.guid,
    fields: d.fields,
    message: `${d.name}${d.guid ? ` (${d.guid})` : ""} ${what}.`,
    advice: `Run ${pulumi("up --refresh", stack)} to apply the program, or change the program to the live values.`,
    location,
    step: d.step,
  };
}

/**
 * How the reports name a source and a subscription: the way a person knows them (a stack's
 * resource by its name in the program, a Terraform resource by its address), never by a URN when
 * the name is at hand; and a source as JUnit's suites and the HTML page name it.
 */
import type { Owner, Review, SourceKind, SourceRef, SourceReport } from "../review/model";
import { inline } from "./markdownText";

/** Each kind of source, as a sentence or a table names it. */
export const KIND_TITLES: Readonly<Record<SourceKind, string>> = {
  "pulumi-stack": "Pulumi stack",
  "terraform-directory": "Terraform directory",
  "terraform-state": "Terraform state",
};

/** `Pulumi stack \`prod\``. */
export function sourceTitle(source: SourceRef): string {
  return `${KIND_TITLES[source.kind]} ${inline(source.name)}`;
}

/**
 * A source read for its claims alone (a state file): it says which subscriptions are managed and
 * compares nothing, so none of them is "in sync".
 */
export const claimsOnly = (s: SourceReport): boolean => s.status === "reviewed" && s.compared.length === 0;

/** What a source was compared with, as it happened. */
export function comparedText(s: SourceReport): string {
  if (s.compared.length > 0) return s.compared.join(" and ");
  return claimsOnly(s) ? "nothing: its claims only" : "not reviewed";
}

/** `kind name`, as the JUnit suites and the HTML page name a source. */
export const sourceName = (source: SourceRef): string => `${source.kind} ${source.name}`;

/** Whether two references name the same source (a stack and a directory may share a name). */
export const sameSource = (a: SourceRef, b: SourceRef): boolean => a.kind === b.kind && a.name === b.name;

/** Whether the owner's source claims a subscription at the owner's address. */
export function isClaimed(review: Review, owner: Owner): boolean {
  return review.sources.some(
    (s) => sameSource(s.source, owner.source) && s.subscriptions.some((m) => m.address === owner.address),
  );
}

/**
 * The name `owner` goes by: the claimed subscription's name, else a URN's last part (the
 * resource's name), else the address itself (a Terraform address is its name).
 */
export function ownerName(review: Review, owner: Owner): string {
  const claimed = review.sources
    .find((s) => sameSource(s.source, owner.source))
    ?.subscriptions.find((m) => m.address === owner.address);
  if (claimed) return claimed.name;
  return owner.source.kind === "pulumi-stack" && owner.address.includes("::")
    ? owner.address.slice(owner.address.lastIndexOf("::") + 2)
    : owner.address;
}

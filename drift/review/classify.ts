/**
 * The one classification of the review: the sources (each saying what it claims and what its own
 * tool found) and the live instances become findings, the same words for every tool. Only here
 * is a subscription called unmanaged (claimed by no source) or co-owned (claimed twice), since
 * that takes every source at once.
 */
import { createHash } from "node:crypto";
import type { Subscription } from "../../provider/wire";
import { coOwnershipAdvice } from "../coOwnership";
import { guidKey } from "../stateSnapshot";
import type { Claim, Observation, SourceResult } from "../sources/source";
import {
  CLASS_TITLES,
  FINDING_CLASSES,
  type Finding,
  type FindingClass,
  type Owner,
  type ReviewedSubscription,
  type SourceRef,
} from "./model";

/** What the classification needs besides the sources. */
export interface ClassifyInput {
  readonly sources: readonly SourceResult[];
  /** Every instance's live subscriptions, by base URL. */
  readonly live: ReadonlyMap<string, readonly Subscription[]>;
  /** How to take over an unmanaged subscription found on `baseUrl`, when a source reaching it can say. */
  readonly adoption?: (live: Subscription, baseUrl: string) => string | undefined;
}

/** Findings and the reviewed subscriptions, before ignore rules and the baseline. */
export interface Classified {
  readonly findings: Finding[];
  readonly reviewed: ReviewedSubscription[];
}

/**
 * A finding's identity across runs: its class, the source and address it concerns, and the
 * subscription; never a field value, so an alert stays one alert while the values move.
 */
export function fingerprint(cls: FindingClass, owner: Owner | null, guid: string | null): string {
  const who = owner ? `${owner.source.kind}:${owner.source.name}:${owner.address}` : "";
  return createHash("sha256")
    .update(`${cls}|${who}|${guid ? guidKey(guid) : ""}`)
    .digest("hex")
    .slice(0, 32);
}

function observationFinding(source: SourceRef, o: Observation): Finding {
  const owner: Owner = { source, address: o.address };
  return {
    class: o.class,
    guid: o.guid,
    owner,
    baseUrl: null,
    fields: o.fields,
    message: o.message,
    ...(o.advice ? { advice: o.advice } : {}),
    ...(o.advisory ? { advisory: true } : {}),
    location: o.location,
    fingerprint: fingerprint(o.class, owner, o.guid),
  };
}

interface OwnedClaim {
  readonly source: SourceRef;
  readonly claim: Claim;
}

/** Owner names as the co-ownership advice writes them (a stack's resource name is its URN's last part). */
function adviceOwner({ source, claim }: OwnedClaim) {
  return source.kind === "pulumi-stack"
    ? { stack: source.name, urn: claim.address, name: claim.address.slice(claim.address.lastIndexOf("::") + 2) }
    : { stack: source.name, urn: claim.address, name: claim.address, tool: "terraform" as const };
}

function coOwnedFindings(claims: readonly OwnedClaim[]): Finding[] {
  const byGuid = new Map<string, OwnedClaim[]>();
  for (const c of claims) byGuid.set(guidKey(c.claim.guid), [...(byGuid.get(guidKey(c.claim.guid)) ?? []), c]);
  return [...byGuid.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const owners = group.map((c): Owner => ({ source: c.source, address: c.claim.address }));
      const guid = group[0]!.claim.guid;
      const named = group.map((c) => `${c.claim.address} in ${c.source.name}`).join(" and ");
      return {
        class: "co-owned" as const,
        guid,
        owner: owners[0]!,
        owners,
        baseUrl: null,
        fields: [],
        message: `${guid} is claimed by ${named}: a destroy of either unsubscribes it for both.`,
        advice: coOwnershipAdvice(guid, group.map(adviceOwner)),
        location: group[0]!.claim.location,
        fingerprint: fingerprint("co-owned", null, guid),
      };
    });
}

/** The file an instance's unmanaged findings point at: the first source reaching it, else the first source. */
function instanceFile(sources: readonly SourceResult[], baseUrl: string): string {
  const reaching = sources.find((s) => s.instances.some((i) => i.baseUrl === baseUrl)) ?? sources[0];
  return reaching?.summary.source.file ?? ".";
}

/**
 * The orphans of killed `pulumi up`s: unclaimed, yet a stack's pending create matches each (its
 * report names the create's URN and the commands that finish the run).
 */
function pendingCreates(sources: readonly SourceResult[]): Map<string, { owner: Owner; advice: string }> {
  const found = new Map<string, { owner: Owner; advice: string }>();
  for (const { summary, stackReport } of sources)
    for (const u of stackReport?.unmanaged ?? [])
      if (u.pendingCreate)
        found.set(guidKey(u.guid), {
          owner: { source: summary.source, address: u.pendingCreate },
          advice: `Finish the killed run, in the program's directory: ${(stackReport!.recovery ?? []).join(" && ")}`,
        });
  return found;
}

function unmanagedFindings(input: ClassifyInput, claimed: ReadonlySet<string>): Finding[] {
  const orphans = pendingCreates(input.sources);
  return [...input.live].flatMap(([baseUrl, live]) =>
    live
      .filter((s) => !claimed.has(guidKey(s.guid)))
      .map((s): Finding => {
        const orphan = orphans.get(guidKey(s.guid));
        if (orphan)
          return {
            class: "pending-create",
            guid: s.guid,
            owner: orphan.owner,
            baseUrl,
            fields: [],
            message: `${s.guid} on ${baseUrl} was created by a killed \`pulumi up\` that never recorded it (${orphan.owner.address}).`,
            advice: orphan.advice,
            location: { file: orphan.owner.source.file },
            fingerprint: fingerprint("pending-create", orphan.owner, s.guid),
          };
        const advice = input.adoption?.(s, baseUrl);
        return {
          class: "unmanaged",
          guid: s.guid,
          owner: null,
          baseUrl,
          fields: [],
          message: `${s.guid} on ${baseUrl} (${s.subscriberUrl}) is claimed by no source: no stack or Terraform state reviewed here manages it.`,
          ...(advice ? { advice } : {}),
          location: { file: instanceFile(input.sources, baseUrl) },
          fingerprint: fingerprint("unmanaged", null, s.guid),
        };
      }),
  );
}

const CLASS_ORDER = new Map(FINDING_CLASSES.map((c, i) => [c, i]));

/** Class, then source, then address, then GUID: the same order in every format. */
function byClassThenWhere(a: Finding, b: Finding): number {
  return (
    CLASS_ORDER.get(a.class)! - CLASS_ORDER.get(b.class)! ||
    (a.owner?.source.name ?? "").localeCompare(b.owner?.source.name ?? "") ||
    (a.owner?.address ?? "").localeCompare(b.owner?.address ?? "") ||
    (a.guid ?? "").localeCompare(b.guid ?? "")
  );
}

/** The one classification: see the module comment. */
export function classify(input: ClassifyInput): Classified {
  const claims = input.sources.flatMap((s) => s.claims.map((claim) => ({ source: s.summary.source, claim })));
  const claimed = new Set(claims.map((c) => guidKey(c.claim.guid)));
  const findings = [
    ...input.sources.flatMap((s) => s.observations.map((o) => observationFinding(s.summary.source, o))),
    ...coOwnedFindings(claims),
    ...unmanagedFindings(input, claimed),
  ].sort(byClassThenWhere);
  const reviewed = claims.map(({ source, claim }): ReviewedSubscription => {
    const key = guidKey(claim.guid);
    return {
      owner: { source, address: claim.address },
      guid: claim.guid,
      findings: findings
        .filter(
          (f) =>
            (f.owner?.source === source && f.owner.address === claim.address) ||
            (f.class === "co-owned" && f.guid !== null && guidKey(f.guid) === key),
        )
        .map((f) => f.fingerprint),
    };
  });
  return { findings, reviewed };
}

/** `n findings` in words, for progress lines and summaries: "2 unmanaged, 1 co-owned". */
export function countsInWords(counts: Readonly<Record<FindingClass, number>>): string {
  const said = FINDING_CLASSES.filter((c) => counts[c] > 0).map((c) => `${counts[c]} ${CLASS_TITLES[c]}`);
  return said.length > 0 ? said.join(", ") : "no findings";
}

/**
 * The one classification of the review: the sources (each saying what it claims and what its own
 * tool found) and the live instances become findings, the same words for every tool. Only here
 * is a subscription called unmanaged (claimed by no source), co-owned (claimed twice) or the
 * orphan of a killed run (a stack's pending create matches it), since that takes every source at once.
 */
import { createHash } from "node:crypto";
import type { Subscription } from "../../provider/wire";
import { matchPendingCreates, recoveryCommands } from "../sources/pulumi/pendingCreates";
import type { Claim, Observation, SourceResult } from "../sources/source";
import { adoptionOf } from "./adoption";
import { adoptionNames, takenNames } from "./adoptionNames";
import { coOwnershipAdvice } from "./coOwnership";
import { guidKey } from "./guid";
import { describeLive } from "./liveSubscription";
import {
  CLASS_TITLES,
  FINDING_CLASSES,
  type Finding,
  type FindingClass,
  type ManagedSubscription,
  type Owner,
  type SourceRef,
} from "./model";

/** What the classification needs: the sources, in command-line order, and every instance's live subscriptions. */
export interface ClassifyInput {
  readonly sources: readonly SourceResult[];
  /** Every instance's live subscriptions, by base URL. */
  readonly live: ReadonlyMap<string, readonly Subscription[]>;
}

/** Findings (before policy, ignore rules and the baseline), and the commands that finish each stack's killed run. */
export interface Classified {
  readonly findings: Finding[];
  /** A stack's recovery commands, by its source, when its state holds pending creates. */
  readonly recovery: ReadonlyMap<SourceRef, readonly string[]>;
}

/**
 * A finding's identity across runs: its class, the source and address it concerns, and the
 * subscription; never a field value, so an alert stays one alert while the values move. The same
 * as version 2's, so that a stored baseline keeps its findings known.
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
    location: o.location,
    fingerprint: fingerprint(o.class, owner, o.guid),
    ...(o.step ? { step: o.step } : {}),
  };
}

/** A claim with the source that makes it. */
export interface OwnedClaim {
  readonly source: SourceRef;
  readonly claim: Claim;
}

/** One `co-owned` finding per GUID claimed more than once, its owners in the order of `claims`. */
export function coOwnedFindings(claims: readonly OwnedClaim[]): Finding[] {
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
        advice: coOwnershipAdvice(
          guid,
          group.map((c) => ({ source: c.source, address: c.claim.address, name: c.claim.name })),
        ),
        location: group[0]!.claim.location,
        fingerprint: fingerprint("co-owned", null, guid),
      };
    });
}

/** A source and the instances it reaches, in command-line order. */
export interface ReachingSource {
  readonly source: SourceRef;
  readonly instances: readonly { readonly baseUrl: string }[];
}

/** The file an instance's unmanaged findings point at: the first source reaching it, else the first source. */
export function instanceFile(sources: readonly ReachingSource[], baseUrl: string): string {
  const reaching = sources.find((s) => s.instances.some((i) => i.baseUrl === baseUrl)) ?? sources[0];
  return reaching?.source.file ?? ".";
}

/** A stack's pending creates, matched to the unclaimed subscriptions on its instances, and the commands that finish its run. */
interface KilledRun {
  readonly source: SourceRef;
  /** The pending create's URN, by the orphan's GUID key. */
  readonly orphans: ReadonlyMap<string, string>;
  /** Pending creates that matched no live subscription. */
  readonly unmatched: readonly string[];
  readonly recovery: readonly string[];
}

function killedRuns(input: ClassifyInput, claimed: ReadonlySet<string>): KilledRun[] {
  return input.sources.flatMap((s): KilledRun[] => {
    const pending = s.pendingCreates ?? [];
    if (pending.length === 0) return [];
    const unclaimed = s.instances
      .flatMap((i) => input.live.get(i.baseUrl) ?? [])
      .filter((live) => !claimed.has(guidKey(live.guid)));
    const matched = matchPendingCreates(pending, unclaimed);
    const orphans = new Map([...matched].map(([guid, urn]) => [guidKey(guid), urn]));
    const urns = new Set(matched.values());
    return [
      {
        source: s.report.source,
        orphans,
        unmatched: pending.map((p) => p.urn).filter((urn) => !urns.has(urn)),
        recovery: recoveryCommands(s.report.source.name, pending.length, [...urns]),
      },
    ];
  });
}

function recoveryAdvice(run: KilledRun): string {
  return `Finish the killed run, in the program's directory: ${run.recovery.join(" && ")}`;
}

/** The pending creates of a killed run, each once: on its orphan when one matched, else on the resource alone. */
function pendingCreateFindings(runs: readonly KilledRun[]): Finding[] {
  return runs.flatMap((run) =>
    run.unmatched.map((urn): Finding => {
      const owner: Owner = { source: run.source, address: urn };
      return {
        class: "pending-create",
        guid: null,
        owner,
        baseUrl: null,
        fields: [],
        message: `A killed \`pulumi up\` of stack ${run.source.name} left ${urn} pending: no live subscription matches what it sent.`,
        advice: recoveryAdvice(run),
        location: { file: run.source.file },
        fingerprint: fingerprint("pending-create", owner, null),
      };
    }),
  );
}

/**
 * An unmanaged finding's message and advice. While some source is `unread`, it may claim the
 * subscription: the advice is to review again, and no adoption may be offered (in a merge too).
 */
export function unmanagedWords(
  live: { readonly guid: string; readonly subscriberUrl: string },
  baseUrl: string,
  unread: readonly string[],
  adoptionAdvice: string | undefined,
): { message: string; advice: string } {
  if (unread.length > 0)
    return {
      message: `${live.guid} on ${baseUrl} (${live.subscriberUrl}) is claimed by none of the sources reviewed; ${unread.join(", ")} could not be read and may claim it.`,
      advice: `Review again once ${unread.join(", ")} can be read: it may claim this one. Until then, neither adopt it nor delete it.`,
    };
  return {
    message: `${live.guid} on ${baseUrl} (${live.subscriberUrl}) is claimed by no source: no stack or Terraform state reviewed here manages it.`,
    advice:
      adoptionAdvice ??
      "Adopt it into the stack or configuration that should own it (`pulumi import`, an `import` block), delete it if nobody needs it, or record it in an --ignore-file entry with its owner.",
  };
}

function unmanagedFindings(input: ClassifyInput, claimed: ReadonlySet<string>, runs: readonly KilledRun[]): Finding[] {
  // Named together: a GUID suffix only where two unmanaged subscriptions would share a name.
  // Never a name a source already uses: its `pulumi import` or `import` block would clash.
  const names = adoptionNames(
    [...input.live.values()].flat().filter((s) => !claimed.has(guidKey(s.guid))),
    new Map(),
    takenNames(input.sources.flatMap((s) => s.claims)),
  );
  const unread = input.sources.filter((s) => s.report.status === "error").map((s) => s.report.source.name);
  return [...input.live].flatMap(([baseUrl, live]) =>
    live
      .filter((s) => !claimed.has(guidKey(s.guid)))
      .map((s): Finding => {
        const subscription = describeLive(s, baseUrl);
        const run = runs.find((r) => r.orphans.has(guidKey(s.guid)));
        if (run) {
          const owner: Owner = { source: run.source, address: run.orphans.get(guidKey(s.guid))! };
          return {
            class: "pending-create",
            guid: s.guid,
            owner,
            baseUrl,
            fields: [],
            message: `${s.guid} on ${baseUrl} was created by a killed \`pulumi up\` that never recorded it (${owner.address}).`,
            advice: recoveryAdvice(run),
            location: { file: run.source.file },
            fingerprint: fingerprint("pending-create", owner, s.guid),
            subscription,
          };
        }
        // A source that could not be read may claim it: no adoption is offered until it can be.
        const adoption = unread.length > 0 ? undefined : adoptionOf(input.sources, s, baseUrl, names.get(s.guid)!);
        return {
          class: "unmanaged",
          guid: s.guid,
          owner: null,
          baseUrl,
          fields: [],
          ...unmanagedWords(s, baseUrl, unread, adoption?.advice),
          ...(adoption ? { adoption: adoption.adoption } : {}),
          location: {
            file: instanceFile(
              input.sources.map((src) => ({ source: src.report.source, instances: src.instances })),
              baseUrl,
            ),
          },
          fingerprint: fingerprint("unmanaged", null, s.guid),
          subscription,
        };
      }),
  );
}

const CLASS_ORDER = new Map(FINDING_CLASSES.map((c, i) => [c, i]));

/** Class, then source, then address, then GUID: the same order in every format. */
export function byClassThenWhere(a: Finding, b: Finding): number {
  return (
    CLASS_ORDER.get(a.class)! - CLASS_ORDER.get(b.class)! ||
    (a.owner?.source.name ?? "").localeCompare(b.owner?.source.name ?? "") ||
    (a.owner?.address ?? "").localeCompare(b.owner?.address ?? "") ||
    (a.guid ?? "").localeCompare(b.guid ?? "")
  );
}

/** Whether `f` is about the subscription `claim` of `source` claims. */
export function concerns(f: Finding, source: SourceRef, claim: Pick<Claim, "address" | "guid">): boolean {
  return (
    (f.owner?.source === source && f.owner.address === claim.address) ||
    (f.class === "co-owned" && f.guid !== null && guidKey(f.guid) === guidKey(claim.guid))
  );
}

/** Each source's subscriptions, by name, with the fingerprints of the findings about each. */
export function managedSubscriptions(
  source: SourceRef,
  claims: readonly Claim[],
  findings: readonly Finding[],
): ManagedSubscription[] {
  return claims
    .map((claim): ManagedSubscription => ({
      address: claim.address,
      name: claim.name,
      guid: claim.guid,
      location: claim.location,
      findings: findings.filter((f) => concerns(f, source, claim)).map((f) => f.fingerprint),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.address.localeCompare(b.address));
}

/** The one classification: see the module comment. */
export function classify(input: ClassifyInput): Classified {
  const claims = input.sources.flatMap((s) => s.claims.map((claim) => ({ source: s.report.source, claim })));
  // What a state mentions without claiming it (a killed replace's old subscription) is not unmanaged either.
  const claimed = new Set([
    ...claims.map((c) => guidKey(c.claim.guid)),
    ...input.sources.flatMap((s) => (s.report.recorded ?? []).map(guidKey)),
  ]);
  const runs = killedRuns(input, claimed);
  const findings = [
    ...input.sources.flatMap((s) => s.observations.map((o) => observationFinding(s.report.source, o))),
    ...coOwnedFindings(claims),
    ...pendingCreateFindings(runs),
    ...unmanagedFindings(input, claimed, runs),
  ].sort(byClassThenWhere);
  return { findings, recovery: new Map(runs.map((r) => [r.source, r.recovery])) };
}

/** `n findings` in words, for progress lines and summaries: "2 unmanaged, 1 co-owned". */
export function countsInWords(counts: Readonly<Record<FindingClass, number>>): string {
  const said = FINDING_CLASSES.filter((c) => counts[c] > 0).map((c) => `${counts[c]} ${CLASS_TITLES[c]}`);
  return said.length > 0 ? said.join(", ") : "no findings";
}

/**
 * `drift --merge part.json…`: one review from partial ones. A fleet's sources are split over a CI
 * matrix; each cell reviews its own and writes its JSON report (`--report part.json`), which holds
 * what its sources claim and what it found on the live list it saw. The merge reads only those
 * reports (the model, version 3) and works out across the union what no part alone can say:
 * - a subscription is unmanaged when some part found it unmanaged and no source of any part claims
 *   or records it; while a source of any part could not be read, it may claim one: no adoption;
 * - a subscription claimed by two sources, of any parts, is co-owned (classify.ts, as one review says it);
 * - a policy finding is owned as one review would own it (policy.ts `policyOwner`);
 * - each source's own findings (differs, deleted, pending creates) are kept from its part.
 * Then the tail every review has (conclude.ts): `--ignore`, `--ignore-file`, `--baseline`, the
 * counts and the exit code. Pure: the files are read by readParts.ts.
 */
import { camelCase } from "../../provider/model";
import { adoptionChoice } from "./adoption";
import { byClassThenWhere, coOwnedFindings, fingerprint, instanceFile, unmanagedWords } from "./classify";
import { concludeReview, type ConcludeOptions } from "./conclude";
import { guidKey } from "./guid";
import type { Finding, FindingClass, IgnoreEntry, Owner, Review, SourceRef } from "./model";
import { byEnforcementThenRule, policyFieldName, policyOwner, policyOwners } from "./policy";

/** One partial review: the file as given, and its report. */
export interface MergePart {
  readonly file: string;
  readonly review: Review;
}

/** Parts that cannot be merged; the message names the files and what to give instead. */
export class MergeError extends Error {
  override readonly name = "MergeError";
}

/** The findings a source's own tool makes, kept from its part. */
const OBSERVED: ReadonlySet<FindingClass> = new Set([
  "differs-from-state",
  "differs-from-program",
  "differs-from-configuration",
  "deleted",
  "pending-create",
]);

const sourceKey = (s: SourceRef): string => `${s.kind}\u0000${s.name}`;

function sourceWords(s: SourceRef): string {
  return `${s.kind === "pulumi-stack" ? "stack" : s.kind === "terraform-directory" ? "Terraform directory" : "state file"} ${JSON.stringify(s.name)}`;
}

/**
 * Refuses parts that do not make one review: a source in two parts (it would be counted twice), or
 * parts reviewed with different policies (the policy findings would not agree).
 */
export function checkParts(parts: readonly MergePart[]): void {
  const seen = new Map<string, string>();
  for (const part of parts)
    for (const s of part.review.sources) {
      const first = seen.get(sourceKey(s.source));
      if (first !== undefined)
        throw new MergeError(
          `--merge ${part.file}: ${sourceWords(s.source)} is also in ${first}. ` +
            "Review each source in one part only, then merge the parts.",
        );
      seen.set(sourceKey(s.source), part.file);
    }
  const withPolicy = parts.filter((p) => p.review.policy !== undefined);
  const other = withPolicy.find(
    (p) => JSON.stringify(p.review.policy) !== JSON.stringify(withPolicy[0]!.review.policy),
  );
  if (other)
    throw new MergeError(
      `--merge ${other.file}: its policy (${other.review.policy!.file}) is not the one of ${withPolicy[0]!.file} ` +
        `(${withPolicy[0]!.review.policy!.file}). Review every part with the same --policy, then merge the parts.`,
    );
}

/** Each finding once, by its fingerprint, the first kept. */
function onceByFingerprint(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(f.fingerprint) && Boolean(seen.add(f.fingerprint)));
}

/** Findings grouped by `key`, in the order each key first comes. */
function groupBy(findings: readonly Finding[], key: (f: Finding) => string): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
  return [...groups.values()];
}

/** The merge of `parts` (checked by checkParts), in part order; see the module comment. */
export function mergeReviews(
  parts: readonly MergePart[],
  options: ConcludeOptions & { readonly now?: Date } = {},
): Review {
  checkParts(parts);
  const reports = parts.flatMap((p) => p.review.sources);
  // One object per source, so that a finding's owner is its source (classify.ts `concerns`).
  const refs = new Map(reports.map((s) => [sourceKey(s.source), s.source]));
  const ref = (s: SourceRef): SourceRef => refs.get(sourceKey(s)) ?? s;
  const order = (s: SourceRef): number => reports.findIndex((r) => r.source === ref(s));
  const sources = reports.map(({ subscriptions, ...report }) => ({
    report,
    claims: subscriptions.map(({ findings: _, ...claim }) => claim),
  }));
  const reaching = reports.map((s) => ({ source: s.source, instances: s.instances }));

  // A part's findings, owned by the merge's sources, without the part's baseline.
  const found = parts.flatMap((p) =>
    p.review.findings.map((f): Finding => {
      const { baseline: _, ...rest } = f;
      const owner = (o: Owner): Owner => ({ ...o, source: ref(o.source) });
      return {
        ...rest,
        owner: f.owner && owner(f.owner),
        ...(f.owners ? { owners: f.owners.map(owner) } : {}),
        ...(f.adoption ? { adoption: { ...f.adoption, into: ref(f.adoption.into) } } : {}),
      };
    }),
  );

  const observed = onceByFingerprint(found.filter((f) => OBSERVED.has(f.class)));
  const claims = sources.flatMap((s) => s.claims.map((claim) => ({ source: s.report.source, claim })));
  const claimed = new Set([
    ...claims.map((c) => guidKey(c.claim.guid)),
    ...sources.flatMap((s) => (s.report.recorded ?? []).map(guidKey)),
    ...observed.flatMap((f) => (f.class === "pending-create" && f.guid !== null ? [guidKey(f.guid)] : [])),
  ]);
  const unread = sources.filter((s) => s.report.status === "error").map((s) => s.report.source.name);
  const unmanaged = groupBy(
    found.filter((f) => f.class === "unmanaged" && f.guid !== null && !claimed.has(guidKey(f.guid))),
    (f) => guidKey(f.guid!),
  ).map((group): Finding => {
    const location = { file: instanceFile(reaching, group[0]!.baseUrl ?? "") };
    // A source of another part that could not be read may claim it: as one review says it, no adoption.
    if (unread.length > 0) {
      const { adoption: _, ...first } = group[0]!;
      const live = { guid: first.guid!, subscriberUrl: first.subscription?.subscriberUrl ?? "" };
      return { ...first, ...unmanagedWords(live, first.baseUrl ?? "", unread, undefined), location };
    }
    // The adoption one review would say: into the first stack reaching the instance, else the first source.
    const adopting = group.filter((f) => f.adoption).sort((a, b) => order(a.adoption!.into) - order(b.adoption!.into));
    const chosen = adoptionChoice(adopting, (f) => f.adoption!.into.kind === "pulumi-stack") ?? group[0]!;
    return { ...chosen, location };
  });

  const owners = policyOwners(
    sources.map((s) => ({ source: s.report.source, claims: s.claims, instances: s.report.instances })),
  );
  const policy = groupBy(
    found.filter((f) => f.class === "policy" && f.guid !== null),
    (f) => `${guidKey(f.guid!)}\u0000${f.rule?.name ?? ""}`,
  )
    .map((group): Finding => {
      const first = group[0]!;
      const { owner, location } = policyOwner(owners, first.guid!, first.baseUrl ?? "");
      const print = fingerprint("policy", owner, first.guid);
      // The part that saw it as one review sees it; else the first part's, owned again.
      return (
        group.find((f) => f.fingerprint === print) ?? {
          ...first,
          owner,
          location,
          fields: first.fields.map((field) => ({ ...field, field: policyFieldName(camelCase(field.field), owner) })),
          fingerprint: print,
        }
      );
    })
    .sort(byEnforcementThenRule);

  const findings = [...observed, ...coOwnedFindings(claims), ...unmanaged, ...policy].sort(byClassThenWhere);

  // The live subscriber URLs the parts show, for `--ignore` URL prefixes.
  const urls = new Map<string, string>();
  for (const f of found) {
    if (f.guid === null) continue;
    if (f.subscription) urls.set(guidKey(f.guid), f.subscription.subscriberUrl);
    for (const field of f.fields)
      if ((field.field === "subscriberUrl" || field.field === "subscriber_url") && typeof field.live === "string")
        urls.set(guidKey(f.guid), field.live);
  }
  const suppressed = new Map<string, string[]>();
  for (const { match, fingerprints } of parts.flatMap((p) => p.review.ignored.suppressed))
    suppressed.set(match, [...new Set([...(suppressed.get(match) ?? []), ...fingerprints])]);
  const onceByMatch = (entries: readonly IgnoreEntry[]) =>
    entries.filter((e, i) => entries.findIndex((o) => o.match === e.match) === i);
  const staleEverywhere = onceByMatch(parts[0]?.review.ignored.stale ?? []).filter((e) =>
    parts.every((p) => p.review.ignored.stale.some((s) => s.match === e.match)),
  );

  return concludeReview(
    {
      sources,
      findings,
      subscriberUrl: (guid) => urls.get(guidKey(guid)),
      // A part in error with every source reviewed could not list an instance.
      failed: parts.some((p) => p.review.status === "error"),
      instances: parts
        .flatMap((p) => p.review.instances)
        .filter((i, n, all) => all.findIndex((o) => o.baseUrl === i.baseUrl) === n),
      notes: [...new Set(parts.flatMap((p) => p.review.notes))],
      ...(parts.find((p) => p.review.policy) ? { policy: parts.find((p) => p.review.policy)!.review.policy! } : {}),
      generatedAt: options.now ?? new Date(),
      // The parts run side by side: the fleet takes as long as its longest part.
      durationMs: Math.max(0, ...parts.map((p) => p.review.durationMs)),
      suppressed,
      expired: onceByMatch(parts.flatMap((p) => p.review.ignored.expired)),
      stale: staleEverywhere,
    },
    options,
  );
}

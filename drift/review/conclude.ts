/**
 * The tail of every review, one review of sources (reviewSources.ts) or the merge of partial ones
 * (merge.ts): the `--ignore` rules and the `--ignore-file` entries, then the `--baseline`, then
 * each source's subscriptions with their findings, the counts, the status and the exit code.
 */
import type { Claim } from "../sources/source";
import { managedSubscriptions } from "./classify";
import { isIgnored } from "./ignore";
import { isExpired } from "./ignoreFile";
import {
  EXIT_CODE,
  FINDING_CLASSES,
  isAdvisory,
  REVIEW_VERSION,
  type Finding,
  type FindingClass,
  type IgnoreEntry,
  type PolicyScope,
  type Review,
  type SourceReport,
} from "./model";

/** What the user asked of the tail: `--ignore`, `--ignore-file` and `--baseline`. */
export interface ConcludeOptions {
  /** `--ignore` rules: GUIDs or subscriber-URL prefixes. */
  readonly ignore?: readonly string[];
  /** `--ignore-file` entries. */
  readonly ignoreEntries?: readonly IgnoreEntry[];
  /** `--baseline`: the file as given and the fingerprints it holds. */
  readonly baseline?: { readonly file: string; readonly fingerprints: ReadonlySet<string> };
}

/** A source as the tail takes it: its report (its subscriptions still to fill in) and what it claims. */
export interface ConcludedSource {
  readonly report: Omit<SourceReport, "subscriptions">;
  readonly claims: readonly Claim[];
}

/** What the review found, before the tail. */
export interface ConcludeInput {
  /** In command-line order. */
  readonly sources: readonly ConcludedSource[];
  /** Every finding, the policy's included, sorted (classify.ts `byClassThenWhere`). */
  readonly findings: readonly Finding[];
  /** The live subscriber URL of a GUID, for the URL-prefix rules; undefined when unknown. */
  readonly subscriberUrl: (guid: string) => string | undefined;
  /** Whether a source failed or an instance could not be listed. */
  readonly failed: boolean;
  readonly instances: Review["instances"];
  readonly notes: readonly string[];
  readonly policy?: PolicyScope;
  readonly generatedAt: Date;
  readonly durationMs: number;
  /** What was left out already, by the rule that left it out (a merge's parts): an entry that did is not stale. */
  readonly suppressed?: ReadonlyMap<string, readonly string[]>;
  /** Entries reported already (a merge's parts): kept, each once. */
  readonly expired?: readonly IgnoreEntry[];
  readonly stale?: readonly IgnoreEntry[];
}

/** Whether a finding is about a subscription `rule` matches: its GUID, or its live subscriber URL's prefix. */
function matches(f: Finding, rule: string, subscriberUrl: ConcludeInput["subscriberUrl"]): boolean {
  if (f.guid === null) return false;
  return isIgnored({ guid: f.guid, subscriberUrl: subscriberUrl(f.guid) ?? "" }, [rule]);
}

/** The entries reported already, then those of `entries` whose match they do not hold. */
function alongside(already: readonly IgnoreEntry[] = [], entries: readonly IgnoreEntry[]): IgnoreEntry[] {
  return [...already, ...entries.filter((e) => !already.some((a) => a.match === e.match))];
}

/** The review: the ignore rules and entries, then the baseline, then the counts and the exit code. */
export function concludeReview(input: ConcludeInput, options: ConcludeOptions): Review {
  const today = input.generatedAt.toISOString().slice(0, 10);
  const entries = options.ignoreEntries ?? [];
  const active = [...(options.ignore ?? []), ...entries.filter((e) => !isExpired(e, today)).map((e) => e.match)];
  const suppressed = new Map<string, string[]>([...(input.suppressed ?? [])].map(([m, f]) => [m, [...f]]));
  const findings = input.findings
    .filter((f) => {
      const rule = active.find((r) => matches(f, r, input.subscriberUrl));
      if (rule === undefined) return true;
      suppressed.set(rule, [...(suppressed.get(rule) ?? []), f.fingerprint]);
      return false;
    })
    .map((f): Finding =>
      options.baseline ? { ...f, baseline: options.baseline.fingerprints.has(f.fingerprint) ? "known" : "new" } : f,
    );
  const expired = alongside(
    input.expired,
    entries.filter((e) => isExpired(e, today)),
  );
  const stale = alongside(input.stale, entries).filter((e) => !isExpired(e, today) && !suppressed.has(e.match));

  const summary = Object.fromEntries(FINDING_CLASSES.map((c) => [c, 0])) as Record<FindingClass, number>;
  for (const f of findings) summary[f.class]++;
  const failed = input.failed || input.sources.some((s) => s.report.status !== "reviewed");
  const counted = findings.filter((f) => !isAdvisory(f));
  const fresh = options.baseline ? counted.filter((f) => f.baseline === "new").length : counted.length;
  return {
    version: REVIEW_VERSION,
    status: failed ? "error" : findings.length > 0 ? "drift" : "in-sync",
    exitCode: failed ? EXIT_CODE.error : fresh > 0 ? EXIT_CODE.drift : EXIT_CODE.noDrift,
    failing: fresh,
    generatedAt: input.generatedAt.toISOString(),
    durationMs: input.durationMs,
    sources: input.sources.map(({ report, claims }) => {
      const { recovery, ...rest } = report;
      return {
        ...rest,
        // Over every finding, the suppressed ones too: a subscription whose finding was ignored is not in sync.
        subscriptions: managedSubscriptions(report.source, claims, input.findings),
        ...(recovery ? { recovery } : {}),
      };
    }),
    instances: input.instances,
    findings,
    summary,
    ignored: {
      suppressed: [...suppressed].map(([match, fingerprints]) => ({ match, fingerprints })),
      expired,
      stale,
    },
    ...(input.policy ? { policy: input.policy } : {}),
    ...(options.baseline
      ? { baseline: { file: options.baseline.file, new: fresh, known: counted.length - fresh } }
      : {}),
    notes: input.notes,
  };
}

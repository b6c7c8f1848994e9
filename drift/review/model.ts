/**
 * The review of any mix of sources (`webhook-subscriptions drift --stack … --terraform … --terraform-state …`)
 * as one plain result model, version 2: what the renderers (drift/render/) print and what
 * `--baseline` reads back. The shape is **sources → findings → renderers**:
 * - a source (a Pulumi stack, a Terraform/OpenTofu working directory, a state file) says which
 *   subscriptions it claims and what its own tool found about them (drift/sources/);
 * - one classification (drift/review/classify.ts) turns the sources and the live instances into
 *   findings, the same words for every tool;
 * - each format is a small renderer over this model; a new format never touches the analysis.
 * Holds no secret value: a secret field is reported as "secret differs" alone.
 */
import type { DriftReport, FieldValue, ReportError } from "../report";

/** Version of the review's JSON shape; bumped on any breaking change to it. */
export const REVIEW_VERSION = 2 as const;

/** The kinds of source, as the report and the command line name them. */
export type SourceKind = "pulumi-stack" | "terraform-directory" | "terraform-state";

/** One source as named on the command line. */
export interface SourceRef {
  readonly kind: SourceKind;
  /** The stack's name, the working directory or the state file, as given. */
  readonly name: string;
  /**
   * The file a finding of this source points at when the declaring file is unknown: the
   * project's `Pulumi.yaml`, the directory's first `.tf` file, or the state file; relative to the
   * directory the review ran in, with `/` separators.
   */
  readonly file: string;
}

/**
 * The finding classes, the same words for every tool (product.md):
 * - `differs-from-state`: the live subscription is not what the source's state records;
 * - `differs-from-program` (Pulumi) / `differs-from-configuration` (Terraform): not what the
 *   program or configuration declares now, even after a refresh accepted the live values;
 * - `deleted`: the state records it, the instance no longer holds it;
 * - `unmanaged`: live, and claimed by no source;
 * - `co-owned`: claimed by two sources (or two resources), from either tool;
 * - `pending-create`: a killed `pulumi up` left it half-recorded (the stack's recovery commands finish it);
 * - `policy`: a live subscription breaks a `--policy` rule.
 */
export const FINDING_CLASSES = [
  "differs-from-state",
  "differs-from-program",
  "differs-from-configuration",
  "deleted",
  "unmanaged",
  "co-owned",
  "pending-create",
  "policy",
] as const;
export type FindingClass = (typeof FINDING_CLASSES)[number];

/** What each class is called in sentences, tables and SARIF rule names. */
export const CLASS_TITLES: Readonly<Record<FindingClass, string>> = {
  "differs-from-state": "differs from the state",
  "differs-from-program": "differs from the program",
  "differs-from-configuration": "differs from the configuration",
  deleted: "deleted out of band",
  unmanaged: "unmanaged",
  "co-owned": "co-owned",
  "pending-create": "pending create of a killed run",
  policy: "policy",
};

/** One field of a finding: the values each side holds, or for a secret only that it differs. */
export interface FieldFinding {
  /** The model's name, e.g. `subscriberUrl` (Terraform's `subscriber_url` is reported by this name too). */
  readonly field: string;
  /** True for `signature` and `customHeaderValue`: then no value is reported ("secret differs"). */
  readonly secret: boolean;
  /** What the program or configuration declares; absent when not compared. */
  readonly declared?: FieldValue;
  /** What the state records; absent when not compared. */
  readonly recorded?: FieldValue;
  /** What the instance holds; absent when it is gone. */
  readonly live?: FieldValue;
}

/** A source's resource that claims a subscription. */
export interface Owner {
  readonly source: SourceRef;
  /** The stack's URN, or the Terraform address with its module path (`module.team.webhooks_subscription.packets`). */
  readonly address: string;
}

/** Where a finding points: the file that declares the resource where known, else the source's file. */
export interface FindingLocation {
  readonly file: string;
  /** 1-based; absent when the line is unknown. */
  readonly line?: number;
}

/** One finding of the review. */
export interface Finding {
  readonly class: FindingClass;
  /** The subscription's GUID; null for one the program declares that the instance does not hold. */
  readonly guid: string | null;
  /** The source and address it concerns; null for `unmanaged` and `policy` on an unmanaged subscription. */
  readonly owner: Owner | null;
  /** For `co-owned`: every owner, the first one as `owner`. */
  readonly owners?: readonly Owner[];
  /** The instance it lives on, when known. */
  readonly baseUrl: string | null;
  readonly fields: readonly FieldFinding[];
  /** One sentence for a person: what was found. */
  readonly message: string;
  /** What to do about it, naming the commands. */
  readonly advice?: string;
  readonly location: FindingLocation;
  /**
   * Stable across runs for the same finding (class, GUID or address, source): what `--baseline`
   * and code scanning's `partialFingerprints` match on.
   */
  readonly fingerprint: string;
  /** For `policy`: an advisory rule's, which does not make the review exit 2. */
  readonly advisory?: boolean;
  /** With `--baseline`: `new` when the previous report did not have it. */
  readonly baseline?: "new" | "known";
}

/** One subscription a source claims, as reviewed: a JUnit test case, a row of the HTML page. */
export interface ReviewedSubscription {
  readonly owner: Owner;
  readonly guid: string | null;
  /** The fingerprints of its findings; empty when it is in sync. */
  readonly findings: readonly string[];
}

/** What became of one source. */
export interface SourceSummary {
  readonly source: SourceRef;
  /** What its live subscriptions were compared with: the state and the program/configuration, or the state alone. */
  readonly comparison: "state-and-program" | "state";
  /** `reviewed`; `undetermined` (legacy API: `reason`); `error` (`error`). */
  readonly status: "reviewed" | "undetermined" | "error";
  /** How many subscriptions it claims. */
  readonly claimed: number;
  readonly reason?: string;
  readonly error?: ReportError;
}

/** One `--ignore-file` entry, as the report restates it. */
export interface IgnoreEntry {
  /** A subscription GUID or a subscriber-URL prefix. */
  readonly match: string;
  readonly reason: string;
  readonly owner: string;
  /** `YYYY-MM-DD`; the entry suppresses nothing after this day. */
  readonly expires?: string;
}

/** What the review left out, and the ignore entries that need attention. */
export interface ReviewIgnored {
  /** Fingerprints of suppressed findings, by the rule that suppressed them (`--ignore` rules as `match` alone). */
  readonly suppressed: readonly { readonly match: string; readonly fingerprints: readonly string[] }[];
  /** Entries past their `expires`: they suppress nothing now. */
  readonly expired: readonly IgnoreEntry[];
  /** Entries that matched nothing: remove them, or fix the match. */
  readonly stale: readonly IgnoreEntry[];
}

/** The whole review: what every format renders. */
export interface Review {
  readonly version: typeof REVIEW_VERSION;
  /** `in-sync`, `drift`, or `error` (a source failed or could not be determined). */
  readonly status: "in-sync" | "drift" | "error";
  /** 0 no drift, 2 drift (with `--baseline`: a new finding), 1 error or undetermined. */
  readonly exitCode: 0 | 1 | 2;
  readonly generatedAt: string;
  readonly durationMs: number;
  readonly sources: readonly SourceSummary[];
  /** Every instance listed, each once. */
  readonly instances: readonly { readonly baseUrl: string; readonly apiVersion: string }[];
  /** Sorted by class (in FINDING_CLASSES order), then source, then address or GUID. */
  readonly findings: readonly Finding[];
  readonly reviewed: readonly ReviewedSubscription[];
  /** Counts by class (every class present, 0 included). */
  readonly summary: Readonly<Record<FindingClass, number>>;
  readonly ignored: ReviewIgnored;
  /** With `--baseline`: the previous report and how many findings are new. */
  readonly baseline?: { readonly file: string; readonly new: number; readonly known: number };
  /** What the review could not see (the account's visibility, list entries that could not be read). */
  readonly notes: readonly string[];
  /** Each stack's own report (version 1), in command-line order: the detail the markdown prints. */
  readonly stacks: readonly DriftReport[];
}

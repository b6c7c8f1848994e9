/**
 * The one model of a review (JSON version 3): what every renderer (drift/render/) prints, what
 * `--baseline` reads back, and what `--format json` writes (docs/reference/drift-report.md gives
 * it as a JSON Schema). The shape is **sources → findings → renderers**:
 * - a source (a Pulumi stack, a Terraform/OpenTofu working directory, a state file) says which
 *   subscriptions it claims, where each is declared, and what its own tool found (drift/sources/);
 * - one classification (review/classify.ts) turns the sources and the live instances into
 *   findings, the same words for every tool;
 * - each format is a small renderer over this model; a new format never touches the analysis.
 * Holds no secret value: a secret field is reported as "secret differs" alone, a custom header
 * value by whether one is set.
 */

/** Version of the review's JSON shape; bumped on any breaking change to it. */
export const REVIEW_VERSION = 3 as const;

/** Exit codes of `webhook-subscriptions drift`, fixed by product.md. */
export const EXIT_CODE = { noDrift: 0, error: 1, drift: 2 } as const;

/** The kinds of source, as the report and the command line name them. */
export type SourceKind = "pulumi-stack" | "terraform-directory" | "terraform-state";

/** A JSON value from a state, a program, a configuration or the instance. */
export type FieldValue = string | number | boolean | null;

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
  /**
   * The field in its source's own words: `subscriberUrl` for a Pulumi stack, `subscriber_url` for a
   * Terraform source (as its configuration writes it).
   */
  readonly field: string;
  /** True for the signature and the custom header value: then no value is reported ("secret differs"). */
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

/** A live subscription as the review describes it: every field but the secrets, whose presence alone is said. */
export interface LiveSubscription {
  readonly guid: string;
  /** The instance it lives on. */
  readonly baseUrl: string;
  readonly webhook: number;
  /** Null for an event newer than this package. */
  readonly webhookName: string | null;
  readonly filterObjectType: number;
  readonly filterObjectGuid: string | null;
  readonly subscriberUrl: string;
  /** `""` when none. */
  readonly customHeader: string;
  /** Whether a custom header value is set; the value itself is never reported. */
  readonly hasCustomHeaderValue: boolean;
}

/**
 * How to take over one unmanaged subscription into a source reaching its instance:
 * - `typescript`: a `new WebhookSubscription(…, { adoptGuid })` statement for a stack's TypeScript
 *   program on the dynamic provider;
 * - `pulumi-import`: the `pulumi import` command for a stack on the native plugin;
 * - `terraform-import`: an `import` block for a Terraform/OpenTofu directory.
 */
export interface Adoption {
  readonly kind: "typescript" | "pulumi-import" | "terraform-import";
  /** The source it is adopted into. */
  readonly into: SourceRef;
  /** The explicit `Provider` reaching the instance (its name in the program), or null for the default one. */
  readonly provider: string | null;
  /** The statement, command or block to paste (a header value never in it). */
  readonly snippet: string;
}

/** What `pulumi up` would do to a subscription that differs from the program. */
export type ProgramStep = "update" | "replace" | "create" | "delete";

/** One finding of the review. */
export interface Finding {
  readonly class: FindingClass;
  /** The subscription's GUID; null for one the program declares that the instance does not hold. */
  readonly guid: string | null;
  /**
   * The source and address it concerns (for `co-owned`, the first of `owners`); null for
   * `unmanaged`, which no source claims. A `policy` finding on a subscription no source claims is the first source's
   * that reaches its instance, at the instance's base URL (as version 2 had it: the same fingerprint).
   */
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
  /** For `unmanaged` and `pending-create`: the live subscription, its secrets left out. */
  readonly subscription?: LiveSubscription;
  /** For `unmanaged`: how to adopt it into a source reaching its instance, when one can say. */
  readonly adoption?: Adoption;
  /** For `differs-from-program`: what `pulumi up` would do. */
  readonly step?: ProgramStep;
  /** For `policy`: the rule broken and its level; an advisory rule does not make the review exit 2. */
  readonly rule?: { readonly name: string; readonly enforcementLevel: "advisory" | "mandatory" };
  /** For `policy`: an advisory rule's, which does not make the review exit 2 (`rule`'s level, restated for readers). */
  readonly advisory?: boolean;
  /** With `--baseline`: `new` when the previous report did not have it. */
  readonly baseline?: "new" | "known";
}

/** Whether `f` breaks an advisory rule: reported in every format as less than drift, never counted as drift. */
export function isAdvisory(f: Pick<Finding, "rule">): boolean {
  return f.rule?.enforcementLevel === "advisory";
}

/** One subscription a source claims, where it is declared, and what was found about it. */
export interface ManagedSubscription {
  /** The URN, or the Terraform address with its module path and index key. */
  readonly address: string;
  /** The resource's name in the program (a URN's last part), or the Terraform address. */
  readonly name: string;
  readonly guid: string;
  /** The file that declares it, and its line where known. */
  readonly location: FindingLocation;
  /**
   * The fingerprints of its findings, those an ignore rule suppressed included (they are in
   * `ignored.suppressed`, not in `findings`); empty when it is in sync.
   */
  readonly findings: readonly string[];
}

/** What a source compared the live subscriptions with: its state, its program (Pulumi), its configuration (Terraform). */
export type Compared = "state" | "program" | "configuration";

/** An instance a source's subscriptions live on. */
export interface SourceInstance {
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** A stack's explicit `Provider` reaching it (its name), or null for the default provider; absent for Terraform. */
  readonly provider?: string | null;
}

/** Why a source could not be reviewed: a stable code and a message written for a person. */
export interface ReportError {
  readonly code: string;
  readonly message: string;
}

/** What became of one source, as it happened. */
export interface SourceReport {
  readonly source: SourceRef;
  /** `reviewed`; `undetermined` (legacy API: `reason`); `error` (`error`). */
  readonly status: "reviewed" | "undetermined" | "error";
  /**
   * What its live subscriptions were actually compared with; empty when it was not reviewed, or
   * for a state file (`--terraform-state`), read for its claims alone. `["state"]` alone for
   * `--state-only`.
   */
  readonly compared: readonly Compared[];
  /** A stack's state backend, credentials removed. */
  readonly backend?: string;
  /** The instances its subscriptions live on (a stack's default provider first). */
  readonly instances: readonly SourceInstance[];
  /** The subscriptions it claims, sorted by name. */
  readonly subscriptions: readonly ManagedSubscription[];
  /** A stack whose state holds pending creates (a killed `pulumi up`): the commands that finish it, in order. */
  readonly recovery?: readonly string[];
  /**
   * The GUIDs its state records beyond its claims (a resource pending deletion after a killed
   * replace, a pending operation other than a create): never unmanaged, in a merge too.
   */
  readonly recorded?: readonly string[];
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

/** With `--policy`: the settings file and each rule that was on. */
export interface PolicyScope {
  readonly file: string;
  readonly rules: readonly { readonly name: string; readonly enforcementLevel: "advisory" | "mandatory" }[];
}

/** The whole review: what every format renders. */
export interface Review {
  readonly version: typeof REVIEW_VERSION;
  /** `in-sync`, `drift`, or `error` (a source failed or could not be determined). */
  readonly status: "in-sync" | "drift" | "error";
  /** 0 no drift, 2 drift (with `--baseline`: a new finding), 1 error or undetermined. */
  readonly exitCode: 0 | 1 | 2;
  /** The findings that make it exit 2: every one but a broken advisory rule's, and with `--baseline` the new ones only. */
  readonly failing: number;
  readonly generatedAt: string;
  readonly durationMs: number;
  /** In command-line order: the stacks, then the Terraform directories, then the state files. */
  readonly sources: readonly SourceReport[];
  /** Every instance listed, each once. */
  readonly instances: readonly { readonly baseUrl: string; readonly apiVersion: string }[];
  /** Sorted by class (in FINDING_CLASSES order), then source, then address or GUID. */
  readonly findings: readonly Finding[];
  /** Counts by class (every class present, 0 included). */
  readonly summary: Readonly<Record<FindingClass, number>>;
  readonly ignored: ReviewIgnored;
  readonly policy?: PolicyScope;
  /** With `--baseline`: the previous report and how many findings are new. */
  readonly baseline?: { readonly file: string; readonly new: number; readonly known: number };
  /** What the review could not see (the account's visibility, list entries that could not be read). */
  readonly notes: readonly string[];
}

/**
 * The drift report: what `reviewDrift` returns, what `--format json` prints (docs/drift.md
 * documents it as a schema), and the exit code a pipeline acts on. Holds no secret value:
 * a changed secret is reported by field name alone.
 */
import type { PolicyReview } from "./policyReview";
import type { SnippetKind } from "./snippet";

/** Version of the report's JSON shape; bumped on any breaking change to it. */
export const REPORT_VERSION = 1 as const;

/** Exit codes of `webhook-subscriptions drift`, fixed by product.md. */
export const EXIT_CODE = { noDrift: 0, error: 1, drift: 2 } as const;

/**
 * - `in-sync`: every managed subscription matches its state (and the program, when compared) and
 *   nothing unmanaged exists;
 * - `drift`: something changed, vanished, exists unmanaged, or differs from the program;
 * - `undetermined`: the review could not be made (legacy API); `reason` says why;
 * - `error`: the review failed; `error` says why.
 */
export type ReportStatus = "in-sync" | "drift" | "undetermined" | "error";

/** What happened to one managed subscription out of band. `unknown` only in undetermined reports. */
export type ManagedStatus = "in-sync" | "changed" | "deleted" | "unknown";

/** A JSON value from state or from the instance. */
export type FieldValue = string | number | boolean | null;

/** One field that differs between state and the live subscription. */
export interface FieldChange {
  /** Output name, e.g. `subscriberUrl`. */
  readonly field: string;
  /** True for `signature` and `customHeaderValue`: then `state` and `live` are absent. */
  readonly secret: boolean;
  readonly state?: FieldValue;
  readonly live?: FieldValue;
}

/** A line of a file of the program, the file relative to the program's directory. */
export interface DeclaredAt {
  readonly file: string;
  readonly line: number;
}

/** One WebhookSubscription the stack manages. */
export interface ManagedSubscription {
  readonly urn: string;
  /** The resource name in the program, e.g. `orders-created`. */
  readonly name: string;
  readonly guid: string;
  readonly status: ManagedStatus;
  /** For `changed`: the differing fields; empty otherwise. */
  readonly changes: readonly FieldChange[];
  /** Where the program declares it (a file relative to the program's directory, and its line), when the state says. */
  readonly declaredAt?: DeclaredAt;
}

/** A subscription on the instance whose GUID the stack's state does not hold. */
export interface UnmanagedSubscription {
  readonly guid: string;
  /** The instance it was found on. */
  readonly baseUrl?: string;
  /** The explicit `Provider` reaching that instance (its name), or null for the default provider. */
  readonly provider?: string | null;
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
  /**
   * How to adopt it, for the front door the stack reaches that instance through: a
   * `new WebhookSubscription(…, { adoptGuid })` statement to paste into a TypeScript program, or
   * a `pulumi import …` command to run in the program's directory (`snippetKind` says which).
   */
  readonly snippet: string;
  /** `typescript` (dynamic provider) or `pulumi-import` (native plugin). */
  readonly snippetKind: SnippetKind;
  /**
   * When it is the orphan of a killed `pulumi up` of the stack: the URN of the pending create it
   * matches (same event, scope, URL and header name); `recovery` records it. Absent otherwise.
   */
  readonly pendingCreate?: string;
}

/**
 * What the review compared the live instance with:
 * - `state-and-program`: the state (what the last `up` or refresh recorded) and the program
 *   (what it declares now, through a preview with a refresh that applies nothing);
 * - `state`: the state only (`--state-only`), for a machine without the program's toolchain.
 *   A `pulumi refresh` copies live values into the state, so this comparison cannot see them.
 */
export type Comparison = "state-and-program" | "state";

/** One field whose live value is not what the program declares. */
export interface ProgramFieldDifference {
  /** Input name, e.g. `subscriberUrl`. */
  readonly field: string;
  /** True for `customHeaderValue`: then `live` and `declared` are absent ("secret differs"). */
  readonly secret: boolean;
  readonly live?: FieldValue;
  /** What the program declares; `"(known after apply)"` when it depends on another resource's output. */
  readonly declared?: FieldValue;
}

/**
 * A subscription whose live values differ from what the program declares, as the program's
 * preview (with a refresh) finds it:
 * - `update`: `pulumi up` would change the fields in `changes` in place;
 * - `replace`: `pulumi up` would replace it to set them (e.g. on the legacy API);
 * - `create`: the program declares it, the instance does not hold it (`changes` is empty);
 * - `delete`: the state holds it and it is live, the program no longer declares it.
 */
export interface ProgramDifference {
  readonly urn: string;
  /** The resource name in the program. */
  readonly name: string;
  /** Null for `create`. */
  readonly guid: string | null;
  readonly action: "update" | "replace" | "create" | "delete";
  readonly changes: readonly ProgramFieldDifference[];
}

/** One stack's resource (or a Terraform state's) that records a co-owned subscription. */
export interface SubscriptionOwner {
  /** The stack's name, or for `tool` `terraform` the state file as given. */
  readonly stack: string;
  /** The resource's URN, or its address in a Terraform state. */
  readonly urn: string;
  /** The resource name in that stack's program, or its address in a Terraform state. */
  readonly name: string;
  /** `terraform` when the owner is a Terraform/OpenTofu state (`--terraform-state`); absent for a Pulumi stack. */
  readonly tool?: "terraform";
}

/** A subscription recorded by more than one of the stacks reviewed together: a destroy of one deletes it for all. */
export interface CoOwnedSubscription {
  readonly guid: string;
  /** The reviewed stack's resource first, then the other stacks'. */
  readonly owners: readonly SubscriptionOwner[];
  /** What to do, naming the stacks, resources and commands. */
  readonly advice: string;
}

export interface ReportSummary {
  readonly managed: number;
  readonly inSync: number;
  readonly changed: number;
  readonly deleted: number;
  readonly unmanaged: number;
  /** Subscriptions whose live values differ from the program (0 when only the state was compared). */
  readonly differsFromProgram: number;
}

/** The instance a review is about. */
export interface ReportInstance {
  readonly baseUrl: string | null;
  readonly apiVersion: string;
  /** The explicit `Provider` reaching it, or null for the default provider. */
  readonly provider?: string | null;
}

/** What the review left out on purpose. */
export interface ReportIgnored {
  /** The `--ignore` rules: GUIDs and subscriber-URL prefixes. */
  readonly rules: readonly string[];
  /** The live subscriptions they matched, which are therefore not reported as unmanaged. */
  readonly guids: readonly string[];
}

/** Why a review failed: a stable code and a message written for a person. */
export interface ReportError {
  readonly code: string;
  readonly message: string;
}

/** Where a review looked: stated by every report, whatever its outcome. */
export interface ReportScope {
  readonly stack: string;
  /** The state backend, credentials removed; null when unknown (e.g. the error came first). */
  readonly backend: string | null;
  /** The default provider's instance (else the first reviewed); null when unknown (baseUrl null when not configured). */
  readonly instance: ReportInstance | null;
  /** Every instance the stack uses (default and explicit providers), each listed once. */
  readonly instances?: readonly ReportInstance[];
  /** Other stacks whose subscriptions count as managed (not reported as unmanaged). */
  readonly alsoManagedBy?: readonly string[];
  /** Terraform/OpenTofu state files (`--terraform-state`) whose subscriptions count as managed. */
  readonly terraformStates?: readonly string[];
  /** Terraform/OpenTofu working directories (`--terraform`) whose subscriptions count as managed. */
  readonly terraformDirectories?: readonly string[];
  readonly ignored?: ReportIgnored;
  /** What the live instance was compared with. */
  readonly comparison: Comparison;
}

export interface DriftReport extends ReportScope {
  readonly version: typeof REPORT_VERSION;
  readonly status: ReportStatus;
  /** 0, 1 or 2: what `webhook-subscriptions drift` exits with. */
  readonly exitCode: 0 | 1 | 2;
  /** ISO 8601 time the review finished. */
  readonly generatedAt: string;
  readonly durationMs: number;
  readonly summary: ReportSummary;
  /** Sorted: deleted, changed, in sync (then by name). */
  readonly managed: readonly ManagedSubscription[];
  /** Sorted by webhook, then subscriber URL. */
  readonly unmanaged: readonly UnmanagedSubscription[];
  /** Subscriptions this stack records that another stack reviewed with it records too (`--stack a --stack b`); sorted by GUID. */
  readonly coOwned: readonly CoOwnedSubscription[];
  /**
   * Subscriptions whose live values differ from what the program declares, sorted by name; empty
   * when `comparison` is `state`. Found even after a `pulumi refresh` accepted the live values
   * into the state, which the state comparison cannot see.
   */
  readonly differsFromProgram: readonly ProgramDifference[];
  /**
   * When the state holds pending creates (a killed `pulumi up`): the commands that finish it, in
   * order, run in the program's directory — each orphan taken over by its own resource, the rest
   * created (docs/recovery.md). A pending create is drift.
   */
  readonly recovery?: readonly string[];
  /**
   * What the review could not see: that only the configured account's subscriptions are listed,
   * and list entries that could not be read (each naming its GUID, field and value). Empty for
   * `undetermined` and `error` reports.
   */
  readonly notes: readonly string[];
  /** For `undetermined`: why drift could not be determined. */
  readonly reason?: string;
  /** For `error`. */
  readonly error?: ReportError;
  /** With `--policy`: the rules held against every live subscription, and what breaks them. */
  readonly policy?: PolicyReview;
}

/** The exit code a report stands for. */
export function exitCodeFor(status: ReportStatus): 0 | 1 | 2 {
  if (status === "in-sync") return EXIT_CODE.noDrift;
  if (status === "drift") return EXIT_CODE.drift;
  return EXIT_CODE.error;
}

const MANAGED_ORDER: Record<ManagedStatus, number> = { deleted: 0, changed: 1, unknown: 2, "in-sync": 3 };

/** Counts and orders what was found, and decides the status (drift includes unmanaged, co-owned and program differences). */
export function summarize(
  managed: readonly ManagedSubscription[],
  unmanaged: readonly UnmanagedSubscription[],
  coOwned: readonly CoOwnedSubscription[] = [],
  differsFromProgram: readonly ProgramDifference[] = [],
): {
  summary: ReportSummary;
  managed: ManagedSubscription[];
  unmanaged: UnmanagedSubscription[];
  status: "in-sync" | "drift";
} {
  const count = (status: ManagedStatus) => managed.filter((m) => m.status === status).length;
  const summary: ReportSummary = {
    managed: managed.length,
    inSync: count("in-sync"),
    changed: count("changed"),
    deleted: count("deleted"),
    unmanaged: unmanaged.length,
    differsFromProgram: differsFromProgram.length,
  };
  const drift = summary.changed + summary.deleted + summary.unmanaged + coOwned.length + summary.differsFromProgram > 0;
  return {
    summary,
    managed: [...managed].sort(
      (a, b) => MANAGED_ORDER[a.status] - MANAGED_ORDER[b.status] || a.name.localeCompare(b.name),
    ),
    unmanaged: [...unmanaged].sort(
      (a, b) => a.webhook - b.webhook || a.subscriberUrl.localeCompare(b.subscriberUrl) || a.guid.localeCompare(b.guid),
    ),
    status: drift ? "drift" : "in-sync",
  };
}

/** What every report states about where the review looked and when. */
export interface ReportContext extends ReportScope {
  /** `Date.now()` when the review started. */
  readonly startedAt: number;
}

function header(
  context: ReportContext,
  status: ReportStatus,
): Omit<DriftReport, "summary" | "managed" | "unmanaged" | "coOwned" | "differsFromProgram" | "recovery" | "notes"> {
  const now = Date.now();
  return {
    version: REPORT_VERSION,
    stack: context.stack,
    backend: context.backend,
    instance: context.instance,
    ...(context.instances ? { instances: context.instances } : {}),
    ...(context.alsoManagedBy ? { alsoManagedBy: context.alsoManagedBy } : {}),
    ...(context.terraformStates ? { terraformStates: context.terraformStates } : {}),
    ...(context.terraformDirectories ? { terraformDirectories: context.terraformDirectories } : {}),
    ...(context.ignored ? { ignored: context.ignored } : {}),
    comparison: context.comparison,
    status,
    exitCode: exitCodeFor(status),
    generatedAt: new Date(now).toISOString(),
    durationMs: now - context.startedAt,
  };
}

/**
 * A finished review.
 * @param findings what only some reviews find: subscriptions another stack reviewed with this one
 *   records too, the commands that finish a killed `up` (the state holds pending creates), and
 *   the subscriptions whose live values differ from the program.
 */
export function driftReport(
  context: ReportContext,
  managed: readonly ManagedSubscription[],
  unmanaged: readonly UnmanagedSubscription[],
  notes: readonly string[] = [],
  findings: {
    readonly coOwned?: readonly CoOwnedSubscription[];
    readonly recovery?: readonly string[];
    readonly differsFromProgram?: readonly ProgramDifference[];
  } = {},
): DriftReport {
  const coOwned = findings.coOwned ?? [];
  const differsFromProgram = [...(findings.differsFromProgram ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const sorted = summarize(managed, unmanaged, coOwned, differsFromProgram);
  const recovery = findings.recovery ?? [];
  return {
    ...header(context, recovery.length > 0 ? "drift" : sorted.status),
    summary: sorted.summary,
    managed: sorted.managed,
    unmanaged: sorted.unmanaged,
    coOwned,
    differsFromProgram,
    ...(recovery.length > 0 ? { recovery } : {}),
    notes,
  };
}

/** A review that could not determine drift; each managed subscription is `unknown`. */
export function undeterminedReport(
  context: ReportContext,
  managed: readonly Pick<ManagedSubscription, "urn" | "name" | "guid" | "declaredAt">[],
  reason: string,
): DriftReport {
  const unknown = managed.map((m): ManagedSubscription => ({
    urn: m.urn,
    name: m.name,
    guid: m.guid,
    status: "unknown",
    changes: [],
    ...(m.declaredAt ? { declaredAt: m.declaredAt } : {}),
  }));
  return {
    ...header(context, "undetermined"),
    summary: { managed: unknown.length, inSync: 0, changed: 0, deleted: 0, unmanaged: 0, differsFromProgram: 0 },
    managed: summarize(unknown, []).managed,
    unmanaged: [],
    coOwned: [],
    differsFromProgram: [],
    notes: [],
    reason,
  };
}

/** A failed review, for printing: what `webhook-subscriptions drift` reports when `reviewDrift` throws. */
export function errorReport(context: ReportContext, error: ReportError): DriftReport {
  return {
    ...header(context, "error"),
    summary: { managed: 0, inSync: 0, changed: 0, deleted: 0, unmanaged: 0, differsFromProgram: 0 },
    managed: [],
    unmanaged: [],
    coOwned: [],
    differsFromProgram: [],
    notes: [],
    error: { code: error.code, message: error.message },
  };
}

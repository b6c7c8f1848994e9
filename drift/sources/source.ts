/**
 * What every source of a review says, whatever its tool: which subscriptions it claims, and what
 * its own tool found about them (drift/review/model.ts has the shape of the whole review). Each
 * kind reads it its own way:
 * - a Pulumi stack (pulumiStack.ts): its state, a refresh preview and, unless `--state-only`, a
 *   preview of its program, all through the team's `pulumi`;
 * - a Terraform/OpenTofu working directory (terraformDirectory.ts): a plan that is never applied
 *   and writes no state, read back with `show -json`;
 * - a state file (terraformStateFile.ts): what it records, nothing more.
 * The classification (drift/review/classify.ts) turns these into findings; no source decides
 * what is unmanaged or co-owned, since that takes all of them.
 */
import type { DriftReport } from "../report";
import type { FieldFinding, FindingClass, FindingLocation, SourceSummary } from "../review/model";

/** One subscription a source claims: its GUID, its address, and the file that declares it when known. */
export interface Claim {
  readonly guid: string;
  /** The URN, or the Terraform address with its module path and index key. */
  readonly address: string;
  readonly location: FindingLocation;
}

/** What a source's own tool found about one of its subscriptions. */
export interface Observation {
  readonly class: Exclude<FindingClass, "unmanaged" | "co-owned">;
  readonly address: string;
  /** Null for one the program or configuration declares that was never created. */
  readonly guid: string | null;
  readonly fields: readonly FieldFinding[];
  /** One sentence: what was found. */
  readonly message: string;
  /** What to do, naming the commands. */
  readonly advice?: string;
  readonly location: FindingLocation;
  /** For `policy`: an advisory rule, which does not make the review exit 2. */
  readonly advisory?: boolean;
}

/** An instance a source's subscriptions live on, with what it takes to list it. */
export interface SourceInstance {
  readonly baseUrl: string;
  readonly apiVersion: string;
}

/** A source, reviewed. */
export interface SourceResult {
  readonly summary: SourceSummary;
  readonly claims: readonly Claim[];
  readonly observations: readonly Observation[];
  /** The instances its subscriptions live on: the ones whose unmanaged subscriptions count. */
  readonly instances: readonly SourceInstance[];
  /** A Pulumi stack's own report (version 1): its detail, its unmanaged subscriptions' adoption snippets. */
  readonly stackReport?: DriftReport;
  /** What the source could not see. */
  readonly notes?: readonly string[];
}

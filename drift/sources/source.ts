/**
 * What every source of a review says, whatever its tool: which subscriptions it claims, where each
 * is declared, and what its own tool found about them (review/model.ts has the shape of the whole
 * review). Each kind reads it its own way:
 * - a Pulumi stack (pulumi/): its state, a refresh preview and, unless `--state-only`, a preview
 *   of its program, all through the team's `pulumi`;
 * - a Terraform/OpenTofu working directory (terraform/): a plan that is never applied and writes
 *   no state, read back with `show -json`;
 * - a state file (terraform/): what it records, nothing more.
 * A source never renders and never decides what is unmanaged or co-owned, since that takes all of
 * them: the classification (review/classify.ts) does. Everything here is plain data.
 */
import type { FrontDoor } from "../../provider/model";
import type { Subscription } from "../../provider/wire";
import type {
  FieldFinding,
  FindingClass,
  FindingLocation,
  ProgramStep,
  SourceInstance,
  SourceReport,
} from "../review/model";

/** One subscription a source claims: its GUID, its address and name, and the file that declares it when known. */
export interface Claim {
  readonly guid: string;
  /** The URN, or the Terraform address with its module path and index key. */
  readonly address: string;
  /** The resource's name in the program, or the Terraform address. */
  readonly name: string;
  readonly location: FindingLocation;
}

/** What a source's own tool found about one of its subscriptions. */
export interface Observation {
  readonly class: Exclude<FindingClass, "unmanaged" | "co-owned" | "pending-create" | "policy">;
  readonly address: string;
  /** Null for one the program or configuration declares that was never created. */
  readonly guid: string | null;
  /** Each field in the source's own words (Terraform: snake_case). */
  readonly fields: readonly FieldFinding[];
  /** One sentence: what was found. */
  readonly message: string;
  /** What to do, naming the commands. */
  readonly advice?: string;
  readonly location: FindingLocation;
  /** For `differs-from-program`: what `pulumi up` would do. */
  readonly step?: ProgramStep;
}

/** Where an unmanaged subscription on an instance a source reaches would be adopted. */
export type AdoptionTarget =
  | {
      readonly kind: "pulumi-stack";
      /** The front door the stack reaches that instance through: `adoptGuid` (dynamic) or `pulumi import` (native). */
      readonly frontDoor: FrontDoor;
      readonly stack: string;
      /** The explicit provider reaching the instance (its name in the program and its URN), or null for the default provider. */
      readonly provider: { readonly name: string; readonly urn: string } | null;
      /** The program's runtime (Pulumi.yaml `runtime`). */
      readonly runtime?: string;
    }
  | {
      readonly kind: "terraform-directory";
      /** The working directory, as given. */
      readonly dir: string;
      readonly cli: "tofu" | "terraform";
    };

/** An instance a source's subscriptions live on, and how to adopt onto it through this source. */
export interface ReachedInstance extends SourceInstance {
  readonly adoptInto?: AdoptionTarget;
}

/** A create a killed `pulumi up` left pending in a stack's state. */
export interface PendingCreate {
  readonly urn: string;
  /** The GUID, when the engine recorded it before the kill. */
  readonly guid?: string;
  /** What it sent (event, scope, URL, header name): `naturalKey` of the provider's model. */
  readonly key: string;
}

/** A source, reviewed. */
export interface SourceResult {
  /** What became of it; its subscriptions and recovery commands are the classification's to fill in. */
  readonly report: Omit<SourceReport, "subscriptions" | "recovery">;
  readonly claims: readonly Claim[];
  readonly observations: readonly Observation[];
  /** The instances its subscriptions live on: the ones whose unmanaged subscriptions count. */
  readonly instances: readonly ReachedInstance[];
  /**
   * The instances it listed itself, with its own credentials (a stack's config), by base URL:
   * each is listed once per review. The others are listed with the provider's `WEBHOOKS_*`.
   */
  readonly listed?: ReadonlyMap<string, readonly Subscription[]>;
  /** A stack's pending creates (a killed `pulumi up`), which the classification matches to their orphans. */
  readonly pendingCreates?: readonly PendingCreate[];
  /** What the source could not see. */
  readonly notes?: readonly string[];
}

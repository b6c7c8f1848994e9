/**
 * Listens to the engine events of a preview of the stack's program with a refresh (nothing
 * applied) and keeps, per WebhookSubscription of either front door, the step the program would
 * take against the live instance: `update` or `replace` (with the fields the provider's diff
 * names), `create` (declared but not live) or `delete` (live and in state, no longer declared).
 *
 * The preview's refresh steps (`refresh`) and the steps that change nothing (`same`, `read`) are
 * left out: only what the program would change is kept. Secrets are masked in engine events, so a
 * differing secret is known by its name in the diff alone, which is all the report shows of it.
 */
import type { EngineEvent, OpType, StepEventMetadata } from "@pulumi/pulumi/automation";
import { isWebhookSubscriptionType } from "../../../provider/model";
import type { ProgramStep } from "../../review/model";

/** What the program's preview says it would do to one subscription. */
export interface ObservedStep {
  readonly urn: string;
  readonly op: ProgramStep;
  /** The subscription's id (its GUID) as refreshed from the instance; absent for a create. */
  readonly id?: string;
  /** The refreshed outputs: the live values (secrets masked). */
  readonly live?: Record<string, unknown>;
  /** The program's declared inputs (secrets masked, unknowns as the engine's sentinel). */
  readonly declared?: Record<string, unknown>;
  /** The top-level properties the provider's diff names. */
  readonly fields: readonly string[];
  /**
   * Whether the provider's diff named its fields. The dynamic provider's host names none (the
   * engine then reports a change without keys), so they are found by comparing (programDifferences.ts).
   */
  readonly named: boolean;
}

/** Engine ops, as the program's step they belong to; a replacement's halves count as its replace. */
const STEP_OF: Partial<Record<OpType, ProgramStep>> = {
  update: "update",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  create: "create",
  delete: "delete",
};

/** A replace outranks its halves' separate events; any step outranks none. */
const RANK: Record<ProgramStep, number> = { replace: 3, update: 2, create: 1, delete: 1 };

/** The top-level property of a diff path such as `subscriberUrl` or `customHeaderValue["x"]`. */
function topLevel(path: string): string {
  return path.split(/[.[]/, 1)[0]!;
}

/** Collects program steps; pass `onEvent` to `stack.preview({ refresh: true, … })`. */
export class ProgramObserver {
  private readonly steps = new Map<string, ObservedStep>();
  /** Diagnostics the engine reported as errors, for the failure message. */
  readonly errors: string[] = [];

  /** The event handler. */
  readonly onEvent = (event: EngineEvent): void => {
    if (event.diagnosticEvent?.severity === "error") this.errors.push(event.diagnosticEvent.message.trim());
    const metadata = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (metadata && isWebhookSubscriptionType(metadata.type)) this.record(metadata);
  };

  /** Every WebhookSubscription the program would change, in the order the engine reported them. */
  all(): ObservedStep[] {
    return [...this.steps.values()];
  }

  private record(metadata: StepEventMetadata): void {
    const op = STEP_OF[metadata.op];
    if (op === undefined) return;
    const known = this.steps.get(metadata.urn);
    if (known && RANK[known.op] > RANK[op]) return;
    const fields = new Set([
      ...(known?.fields ?? []),
      ...(metadata.diffs ?? []).map(topLevel),
      ...Object.keys(metadata.detailedDiff ?? {}).map(topLevel),
    ]);
    const id = metadata.old?.id ?? known?.id;
    const live = metadata.old?.outputs ?? known?.live;
    const declared = metadata.new?.inputs ?? known?.declared;
    this.steps.set(metadata.urn, {
      urn: metadata.urn,
      op,
      ...(id ? { id } : {}),
      ...(live ? { live } : {}),
      ...(declared ? { declared } : {}),
      fields: [...fields],
      named: fields.size > 0,
    });
  }
}

/**
 * Listens to the engine events of a refresh preview and keeps, per WebhookSubscription (of
 * either front door), what the engine found: the step (`same`, `update`, `delete`, …) and the
 * outputs before and after.
 *
 * Engine events mask every secret (`"[secret]"`), so from them alone a changed
 * `customHeaderValue` shows up only as an `update` whose visible outputs are equal; the
 * classifier resolves those with the plaintext state and the live subscription.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { isWebhookSubscriptionType } from "../../../provider/model";

/**
 * The op of a refresh step in a preview of the program (`pulumi preview --refresh`). Unlike a
 * refresh preview's `same`, `update` or `delete`, it does not say whether the resource changed or
 * is gone: its outputs do (classifyManaged.ts).
 */
export const REFRESH_OP = "refresh";

/** What the refresh preview says about one resource. */
export interface RefreshObservation {
  /** The engine's step op of the resource's outputs event, e.g. `same`, `update`, `delete`. */
  readonly op: string;
  /** Outputs before the refresh (secrets masked). */
  readonly old?: Record<string, unknown>;
  /** Outputs the provider read; absent when the resource is gone. */
  readonly new?: Record<string, unknown>;
}

/** Progress of a refresh preview, as counts of WebhookSubscriptions. */
export interface RefreshProgress {
  readonly started: number;
  readonly finished: number;
}

/**
 * Which run the events come from: a refresh preview (`stack.previewRefresh`), whose every step is a
 * refresh, or a preview of the program with a refresh (`stack.preview({ refresh: true })`), whose
 * refresh steps (op `refresh`) come first and whose program steps are not observations.
 */
export type RefreshEvents = "refresh-preview" | "program-preview";

/**
 * Collects observations; pass `onEvent` to the run `events` names. `onProgress` is called after
 * every WebhookSubscription event.
 */
export class RefreshObserver {
  private readonly observations = new Map<string, RefreshObservation>();
  private readonly started = new Set<string>();
  /** Diagnostics the engine reported as errors, for the failure message. */
  readonly errors: string[] = [];

  constructor(
    private readonly onProgress: (progress: RefreshProgress) => void = () => {},
    private readonly events: RefreshEvents = "refresh-preview",
  ) {}

  /** The event handler. */
  readonly onEvent = (event: EngineEvent): void => {
    if (event.diagnosticEvent?.severity === "error") this.errors.push(event.diagnosticEvent.message.trim());
    const pre = event.resourcePreEvent?.metadata;
    if (pre && this.isRefreshStep(pre)) {
      this.started.add(pre.urn);
      this.report();
    }
    const done = event.resOutputsEvent?.metadata;
    if (done && this.isRefreshStep(done)) {
      this.observations.set(done.urn, {
        op: done.op,
        ...(done.old ? { old: done.old.outputs } : {}),
        ...(done.new ? { new: done.new.outputs } : {}),
      });
      this.report();
    }
  };

  /** The observation for `urn`, if the engine reported one. */
  get(urn: string): RefreshObservation | undefined {
    return this.observations.get(urn);
  }

  /** How many WebhookSubscriptions the refresh has finished. */
  get finished(): number {
    return this.observations.size;
  }

  /** Whether a step is a WebhookSubscription's refresh (in a program preview, not a program step). */
  private isRefreshStep(step: { readonly type: string; readonly op: string }): boolean {
    return isWebhookSubscriptionType(step.type) && (this.events === "refresh-preview" || step.op === REFRESH_OP);
  }

  private report(): void {
    this.onProgress({ started: this.started.size, finished: this.observations.size });
  }
}

/**
 * Classifies one managed subscription from what the refresh preview observed: in sync,
 * changed out of band (which fields, old and new values), or deleted out of band.
 *
 * Visible fields are compared in the engine's own before/after outputs. Secrets are masked in
 * engine events, so when the engine saw a change (or, refreshing inside a preview of the program,
 * does not say), secret fields are compared as plaintext between the state and the live
 * subscription, and reported by name only.
 */
import { mayMeanGone, NotFoundError, type WebhookSubscriptionClient } from "../../../provider/client";
import type { Subscription } from "../../../provider/wire";
import { DriftError, DriftErrorCode } from "../../errors";
import { guidKey } from "../../review/guid";
import type { FieldFinding } from "../../review/model";
import { comparableValue, COMPARED_FIELDS, MASKED, SECRET_FIELDS, unwrapValue } from "./fields";
import { REFRESH_OP, type RefreshObservation, type RefreshObserver } from "./refreshObserver";
import type { StateSubscription } from "./stateSnapshot";

/** What became of one managed subscription out of band. */
export interface ManagedVerdict {
  readonly urn: string;
  /** The resource's name in the program. */
  readonly name: string;
  readonly guid: string;
  readonly status: "in-sync" | "changed" | "deleted";
  /** For `changed`: each differing field, the state's value as `recorded` (a secret by name alone). */
  readonly changes: readonly FieldFinding[];
}

/** Engine ops of a refresh step that leave the resource as it was. */
const UNCHANGED_OPS: ReadonlySet<string> = new Set(["same", "read"]);

/**
 * Whether the engine saw a change, or (a program preview's refresh step, REFRESH_OP) does not say:
 * then secrets need comparing, and the live subscription is needed.
 */
function engineSawChange(observation: RefreshObservation): boolean {
  return observation.new !== undefined && !UNCHANGED_OPS.has(observation.op);
}

/** Whether the engine found the subscription gone. */
function engineSawDeletion(observation: RefreshObservation): boolean {
  return observation.op === "delete" || (observation.new === undefined && !UNCHANGED_OPS.has(observation.op));
}

/**
 * Secret fields that differ, by name. Without both plaintexts, a change the engine saw but no
 * visible field explains is put on every secret field that could have caused it.
 */
function secretChanges(state: StateSubscription, live: Subscription | undefined, explained: boolean): FieldFinding[] {
  const secrets = COMPARED_FIELDS.filter((f) => SECRET_FIELDS.has(f));
  const readable = live !== undefined && secrets.every((f) => state.outputs[f] !== undefined);
  if (!readable) return explained ? [] : secrets.map((field) => ({ field, secret: true }));
  return secrets.filter((f) => state.outputs[f] !== live[f]).map((field) => ({ field, secret: true }));
}

/**
 * The verdict on one managed subscription.
 * @param live the subscription as read through the API, for secret fields; needed only when
 *   `engineSawChange(observation)`.
 */
export function classify(
  state: StateSubscription,
  observation: RefreshObservation,
  live?: Subscription,
): ManagedVerdict {
  const base = { urn: state.urn, name: state.name, guid: state.guid };
  if (engineSawDeletion(observation)) return { ...base, status: "deleted", changes: [] };
  if (!engineSawChange(observation)) return { ...base, status: "in-sync", changes: [] };

  const visible: FieldFinding[] = [];
  for (const field of COMPARED_FIELDS.filter((f) => !SECRET_FIELDS.has(f))) {
    const before = unwrapValue(observation.old?.[field]);
    const after = unwrapValue(observation.new?.[field]);
    // State from before event names records `webhook: 0` where the plugin now reads "PacketCreated": the same event.
    if (comparableValue(field, before) !== comparableValue(field, after) && before !== MASKED && after !== MASKED) {
      visible.push({ field, secret: false, recorded: before ?? null, live: after ?? null });
    }
  }
  // A refresh step that does not say it changed puts no change on a secret it cannot read.
  const explained = visible.length > 0 || observation.op === REFRESH_OP;
  const changes = [...visible, ...secretChanges(state, live, explained)];
  // The engine also reports a step when only recorded inputs differ; that is no out-of-band change.
  return { ...base, status: changes.length > 0 ? "changed" : "in-sync", changes };
}

/**
 * Classifies every managed subscription of one instance from the refresh's observations; a changed
 * one missing from the instance's list (created or paged out since) is read with Get, to know which
 * secret changed. Fails when the refresh left one unreported: its drift would be unknown.
 */
export async function classifyManaged(
  managed: readonly StateSubscription[],
  observer: RefreshObserver,
  live: readonly Subscription[],
  client: WebhookSubscriptionClient,
  stackName: string,
): Promise<ManagedVerdict[]> {
  const liveByGuid = new Map(live.map((s) => [guidKey(s.guid), s]));
  const unreported = managed.filter((s) => !observer.get(s.urn));
  if (unreported.length > 0)
    throw new DriftError(
      DriftErrorCode.RefreshIncomplete,
      `The refresh preview of stack "${stackName}" reported nothing about ${unreported.map((s) => s.name).join(", ")}, so their drift is unknown. Run the review again; if it persists, run \`pulumi refresh --preview-only\` to see why.`,
    );
  return Promise.all(
    managed.map(async (s) => {
      const observation = observer.get(s.urn)!;
      let current = liveByGuid.get(guidKey(s.guid));
      if (!current && engineSawChange(observation)) current = await client.get(s.guid).catch(ignoreNotFound);
      return classify(s, observation, current);
    }),
  );
}

function ignoreNotFound(err: unknown): undefined {
  // A 400 that may mean gone needs no confirming here: the refresh preview already decided.
  if (err instanceof NotFoundError || mayMeanGone(err)) return undefined;
  throw err;
}

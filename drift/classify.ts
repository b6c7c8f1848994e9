/**
 * Classifies one managed subscription from what the refresh preview observed: in sync,
 * changed out of band (which fields, old and new values), or deleted out of band.
 *
 * Visible fields are compared in the engine's own before/after outputs. Secrets are masked in
 * engine events, so when the engine saw a change (or, refreshing inside a preview of the program,
 * does not say), secret fields are compared as plaintext between the state and the live
 * subscription, and reported by name only.
 */
import type { Subscription } from "../provider/wire";
import { comparableValue, COMPARED_FIELDS, MASKED, SECRET_FIELDS, unwrapValue } from "./fields";
import { REFRESH_OP, type RefreshObservation } from "./refreshObserver";
import type { FieldChange, ManagedSubscription } from "./report";
import type { StateSubscription } from "./stateSnapshot";

/** Engine ops of a refresh step that leave the resource as it was. */
const UNCHANGED_OPS: ReadonlySet<string> = new Set(["same", "read"]);

/**
 * Whether the engine saw a change, or (a program preview's refresh step, REFRESH_OP) does not say:
 * then secrets need comparing, and the live subscription is needed.
 */
export function engineSawChange(observation: RefreshObservation): boolean {
  return observation.new !== undefined && !UNCHANGED_OPS.has(observation.op);
}

/** Whether the engine found the subscription gone. */
export function engineSawDeletion(observation: RefreshObservation): boolean {
  return observation.op === "delete" || (observation.new === undefined && !UNCHANGED_OPS.has(observation.op));
}

/**
 * Secret fields that differ, by name. Without both plaintexts, a change the engine saw but no
 * visible field explains is put on every secret field that could have caused it.
 */
function secretChanges(state: StateSubscription, live: Subscription | undefined, explained: boolean): FieldChange[] {
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
): ManagedSubscription {
  const base = {
    urn: state.urn,
    name: state.name,
    guid: state.guid,
    ...(state.declaredAt ? { declaredAt: state.declaredAt } : {}),
  };
  if (engineSawDeletion(observation)) return { ...base, status: "deleted", changes: [] };
  if (!engineSawChange(observation)) return { ...base, status: "in-sync", changes: [] };

  const visible: FieldChange[] = [];
  for (const field of COMPARED_FIELDS.filter((f) => !SECRET_FIELDS.has(f))) {
    const before = unwrapValue(observation.old?.[field]);
    const after = unwrapValue(observation.new?.[field]);
    // State from before event names records `webhook: 0` where the plugin now reads "PacketCreated": the same event.
    if (comparableValue(field, before) !== comparableValue(field, after) && before !== MASKED && after !== MASKED) {
      visible.push({ field, secret: false, state: before ?? null, live: after ?? null });
    }
  }
  // A refresh step that does not say it changed puts no change on a secret it cannot read.
  const explained = visible.length > 0 || observation.op === REFRESH_OP;
  const changes = [...visible, ...secretChanges(state, live, explained)];
  // The engine also reports a step when only recorded inputs differ; that is no out-of-band change.
  return { ...base, status: changes.length > 0 ? "changed" : "in-sync", changes };
}

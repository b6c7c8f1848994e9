/**
 * What `npm start` says about one `up --refresh`: the counts of what the refresh found out of band
 * and of what the update did, read from the engine's events.
 */
import { isDeepStrictEqual } from "node:util";
import type { EngineEvent } from "@pulumi/pulumi/automation";

/** Counts of an operation's resource changes other than "same", as "2 updated, 1 deleted". */
export function describeChanges(changes: Record<string, number> | undefined, verbs: Record<string, string>): string {
  return Object.entries(changes ?? {})
    .filter(([op, n]) => op !== "same" && n > 0)
    .map(([op, n]) => `${n} ${verbs[op] ?? op}`)
    .join(", ");
}

/**
 * A subscription's outputs without the record of the instance's address (`baseUrl`): a refresh
 * that only records a new address (the embedded emulator moved to another port, a renamed host)
 * found nothing changed out of band, as the drift review says too.
 */
function withoutAddress(outputs: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (outputs === undefined) return undefined;
  const { baseUrl: _address, ...rest } = outputs;
  return rest;
}

/**
 * What the refresh of `pulumi up --refresh` found, counted as a separate `pulumi refresh` counts
 * it: "update" for a resource whose outputs changed out of band, "delete" for one that is gone.
 * The events carry no diff of a refresh: its states before and after are compared here.
 */
export function refreshChanges(events: readonly EngineEvent[]): Record<string, number> {
  const counts: Record<string, number> = { update: 0, delete: 0 };
  for (const event of events) {
    const step = event.resOutputsEvent?.metadata;
    if (step?.op !== "refresh" || step.type.startsWith("pulumi:")) continue;
    const same = step.new && isDeepStrictEqual(withoutAddress(step.old?.outputs), withoutAddress(step.new.outputs));
    const kind = !step.new ? "delete" : same ? "same" : "update";
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * Orphans of a killed `pulumi up`: a create the engine recorded as pending (the service may have
 * committed it, but the state holds no GUID) matched to the unmanaged subscription it made. The
 * engine's own repair records it: `pulumi refresh --import-pending-creates <urn> <guid>`
 * (docs/recovery.md). Each pending create is matched to at most one identical orphan.
 */
import { naturalKey } from "../provider/model";
import type { Subscription } from "../provider/wire";
import { shellWord } from "./shellWord";
import type { PendingCreate } from "./stateSnapshot";

/** A pending create matched to the orphan it left. */
export interface PendingCreateMatch {
  /** The pending create's URN. */
  readonly urn: string;
  /** The command that records the orphan as that resource, run in the program's directory. */
  readonly command: string;
}

/**
 * Matches each pending create of `stack` to one unmanaged subscription identical to what it sent
 * (same event, scope, URL and header name), in state order.
 * @returns the match of each orphan, by its GUID.
 */
export function matchPendingCreates(
  stack: string,
  pending: readonly PendingCreate[],
  orphans: readonly Subscription[],
): Map<string, PendingCreateMatch> {
  const matches = new Map<string, PendingCreateMatch>();
  for (const create of pending) {
    const orphan = orphans.find((o) => !matches.has(o.guid) && naturalKey(o) === create.key);
    if (orphan)
      matches.set(orphan.guid, {
        urn: create.urn,
        command: importPendingCreateCommand(stack, create.urn, orphan.guid),
      });
  }
  return matches;
}

/**
 * `pulumi refresh --import-pending-creates`: the flag is a string array, so the URN and the GUID
 * are each given with their own flag (`--import-pending-creates <urn> <guid>` would make the GUID
 * an argument, which refresh refuses). `--clear-pending-creates` then drops the pending creates
 * that committed nothing, which `up` creates afresh.
 */
export function importPendingCreateCommand(stack: string, urn: string, guid: string): string {
  return [
    "pulumi",
    "refresh",
    "--stack",
    stack,
    "--import-pending-creates",
    urn,
    "--import-pending-creates",
    guid,
    "--yes",
  ]
    .map(shellWord)
    .join(" ");
}

/**
 * Orphans of a killed `pulumi up`: a create the engine recorded as pending (the service may have
 * committed it, but the state holds no GUID) matched to the unmanaged subscription it made, and
 * the commands that record each as its resource (docs/recovery.md).
 *
 * The engine's own `pulumi refresh --import-pending-creates <urn> <guid>` cannot do it at CLI
 * 3.248.0 (nor 3.259.0): it turns the pending create into a pending import, which the refresh then
 * drops with the other non-create pending operations — the resource never reaches the state.
 * So the pending creates are cleared, and an `up` limited to the matched resources (`--target`)
 * takes over exactly their orphans with the adoptIdentical opt-in (the default provider reads
 * `WEBHOOKS_ADOPT_IDENTICAL`); a plain `up` then creates the rest.
 */
import { naturalKey } from "../../../provider/model";
import type { Subscription } from "../../../provider/wire";
import { shellWord } from "../../review/shellWord";
import type { PendingCreate } from "../source";

/**
 * Matches each pending create to one unmanaged subscription: the one whose GUID it records, when
 * the engine wrote it before the kill, else one identical to what it sent (same event, scope, URL
 * and header name), in state order.
 * @returns the URN of the pending create each matched orphan belongs to, by the orphan's GUID.
 */
export function matchPendingCreates(
  pending: readonly PendingCreate[],
  orphans: readonly Subscription[],
): Map<string, string> {
  const matches = new Map<string, string>();
  // First the creates whose GUID the engine wrote before the kill: exactly that subscription.
  const byGuid = pending.filter((c) => c.guid !== undefined);
  for (const create of byGuid) {
    const orphan = orphans.find((o) => o.guid.toLowerCase() === create.guid);
    if (orphan) matches.set(orphan.guid, create.urn);
  }
  for (const create of pending.filter((c) => c.guid === undefined)) {
    const orphan = orphans.find((o) => !matches.has(o.guid) && naturalKey(o) === create.key);
    if (orphan) matches.set(orphan.guid, create.urn);
  }
  return matches;
}

/**
 * The commands that finish a killed `up` of `stack`, in order, run in the program's directory:
 * clear the pending creates; take over the orphans of `matchedUrns` (if any, sorted), and only
 * those; create the rest. Empty when the state has no pending create.
 */
export function recoveryCommands(stack: string, pendingCount: number, matchedUrns: readonly string[]): string[] {
  if (pendingCount === 0) return [];
  const command = (words: readonly string[]) => words.map(shellWord).join(" ");
  return [
    command(["pulumi", "refresh", "--stack", stack, "--clear-pending-creates", "--yes"]),
    ...(matchedUrns.length === 0
      ? []
      : [
          `WEBHOOKS_ADOPT_IDENTICAL=true ${command(["pulumi", "up", "--stack", stack, ...[...matchedUrns].sort().flatMap((urn) => ["--target", urn]), "--yes"])}`,
        ]),
    command(["pulumi", "up", "--stack", stack, "--yes"]),
  ];
}

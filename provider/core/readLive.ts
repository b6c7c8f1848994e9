/**
 * Reading one managed subscription for refresh, without ever dropping one that still exists:
 * - from the shared list snapshot when it is there;
 * - a list entry that could not be read fails this subscription alone, naming field and value;
 * - otherwise with Get (the list may be stale or paged). A 404, or the empty array some
 *   instances answer, means gone. A 400 without messages may mean gone too (the vendor's
 *   documentation lists it for non-existing values), so it is confirmed through a fresh list
 *   before the subscription is dropped. 401 and 403 are errors, never "gone".
 */
import { mayMeanGone, NotFoundError } from "../client";
import type { Subscription, UnreadableSubscription } from "../wire";
import type { Instance } from "./session";

/** The live subscription `guid`, or undefined when it no longer exists (for this account). */
export async function readLive(s: Instance, guid: string): Promise<Subscription | undefined> {
  const listed = (await s.snapshots.get()).get(guid);
  if (listed) return listed;
  const problem = await s.snapshots.problem(guid);
  if (problem) throw unreadable(problem);
  try {
    return await s.client.get(guid);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (!mayMeanGone(err)) throw err;
    const fresh = await s.configurationClient.listWithProblems();
    const confirmed = fresh.subscriptions.find((x) => x.guid === guid);
    if (confirmed) return confirmed;
    const stillThere = fresh.problems.find((x) => x.guid === guid);
    if (stillThere) throw unreadable(stillThere);
    return undefined;
  }
}

function unreadable(problem: UnreadableSubscription): Error {
  return new Error(
    `GetAllWebhookSubscriptions: ${problem.message} Only this subscription is affected; the others were read.`,
  );
}

/**
 * Coalesced reads for refresh. The engine refreshes resources concurrently; instead of one Get
 * per subscription, reads that arrive together share one GetAll, so refreshing 200
 * subscriptions costs a handful of calls rather than 200.
 */
import type { Subscription, SubscriptionList, UnreadableSubscription } from "../wire";

export interface ListSource {
  listWithProblems(): Promise<SubscriptionList>;
}

/** One GetAll: the subscriptions read, and the entries that could not be read, by GUID. */
interface Snapshot {
  readonly live: Map<string, Subscription>;
  readonly problems: Map<string, UnreadableSubscription>;
}

/**
 * A GetAll snapshot shared by the reads of one engine operation. A snapshot is reused while its
 * request is in flight and for `reuseMs` after it completes, and kept coherent with this
 * process's own writes (`record`, `forget`); a read that misses its GUID confirms with a Get, so
 * a stale or paged list can never drop a subscription from state. A provider process lives for
 * one engine operation, so out-of-band changes made during it are the only ones it can miss —
 * as any refresh would.
 */
export class ListSnapshots {
  private current?: { promise: Promise<Snapshot>; settledAt?: number };

  constructor(
    private readonly source: ListSource,
    private readonly reuseMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live subscriptions by GUID, from a shared snapshot. */
  async get(): Promise<Map<string, Subscription>> {
    return (await this.snapshot()).live;
  }

  /** Why the list entry of `guid` could not be read, if it could not (from the same shared snapshot). */
  async problem(guid: string): Promise<UnreadableSubscription | undefined> {
    return (await this.snapshot()).problems.get(guid);
  }

  private snapshot(): Promise<Snapshot> {
    const current = this.current;
    if (current && (current.settledAt === undefined || this.now() - current.settledAt <= this.reuseMs))
      return current.promise;
    const entry: { promise: Promise<Snapshot>; settledAt?: number } = {
      promise: this.source.listWithProblems().then(
        ({ subscriptions, problems }) => {
          entry.settledAt = this.now();
          return {
            live: new Map(subscriptions.map((s) => [s.guid, s])),
            problems: new Map(problems.flatMap((p) => (p.guid === null ? [] : [[p.guid, p] as const]))),
          };
        },
        (err: unknown) => {
          // A failed list is not shared: the next read tries again.
          if (this.current === entry) this.current = undefined;
          throw err;
        },
      ),
    };
    this.current = entry;
    return entry.promise;
  }

  /** Keeps the snapshot in step with a subscription this process created or updated. */
  record(subscription: Subscription): void {
    void this.current?.promise.then(
      ({ live, problems }) => {
        live.set(subscription.guid, subscription);
        problems.delete(subscription.guid);
      },
      () => undefined,
    );
  }

  /** Keeps the snapshot in step with a subscription this process deleted. */
  forget(guid: string): void {
    void this.current?.promise.then(
      ({ live, problems }) => {
        live.delete(guid);
        problems.delete(guid);
      },
      () => undefined,
    );
  }
}

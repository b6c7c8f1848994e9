/**
 * Coalesced reads for refresh. The engine refreshes resources concurrently; instead of one Get
 * per subscription, reads that arrive together share one GetAll, so refreshing 200
 * subscriptions costs a handful of calls rather than 200.
 */
import type { Subscription } from "../wire";

export interface ListSource {
  list(): Promise<Subscription[]>;
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
  private current?: { promise: Promise<Map<string, Subscription>>; settledAt?: number };

  constructor(
    private readonly source: ListSource,
    private readonly reuseMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live subscriptions by GUID, from a shared snapshot. */
  get(): Promise<Map<string, Subscription>> {
    const current = this.current;
    if (current && (current.settledAt === undefined || this.now() - current.settledAt <= this.reuseMs))
      return current.promise;
    const entry: { promise: Promise<Map<string, Subscription>>; settledAt?: number } = {
      promise: this.source.list().then(
        (all) => {
          entry.settledAt = this.now();
          return new Map(all.map((s) => [s.guid, s]));
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
      (all) => all.set(subscription.guid, subscription),
      () => undefined,
    );
  }

  /** Keeps the snapshot in step with a subscription this process deleted. */
  forget(guid: string): void {
    void this.current?.promise.then(
      (all) => all.delete(guid),
      () => undefined,
    );
  }
}

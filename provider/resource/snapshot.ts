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
 * A GetAll snapshot shared by the reads of one burst. A snapshot is reused while its request is in
 * flight and for `reuseMs` after it completes; a read that misses its GUID confirms with a Get,
 * so a stale or paged list can never drop a subscription from state.
 */
export class ListSnapshots {
  private current?: { promise: Promise<Map<string, Subscription>>; settledAt?: number };

  constructor(
    private readonly source: ListSource,
    private readonly reuseMs = 2_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live subscriptions by GUID, from a shared snapshot. */
  get(): Promise<Map<string, Subscription>> {
    const current = this.current;
    if (current && (current.settledAt === undefined || this.now() - current.settledAt <= this.reuseMs)) return current.promise;
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

  /** Forget the snapshot, e.g. after this process changed something. */
  invalidate(): void {
    this.current = undefined;
  }
}

/**
 * What the emulated service knows: subscriptions (in insertion order) and declared work items.
 * Keys are lower-case GUIDs, which makes every GUID comparison case-insensitive.
 * Each mutation resolves once it is durable when a state file is configured.
 */
import { normalizeGuid } from "../provider/wire";
import { emptyState, loadState, StateWriter, type PersistedState, type StoredSubscription } from "./stateFile";

/** In-memory state with optional write-through persistence. */
export class Store {
  private readonly subscriptions = new Map<string, StoredSubscription>();
  private readonly closedWorkItems = new Map<string, boolean>();
  /** GUID → the account that created the subscription (absent for subscriptions from older state files). */
  private readonly owners = new Map<string, string>();
  private readonly writer: StateWriter | null;

  private constructor(
    statePath: string | null,
    /** Most subscriptions held at once (a loaded state file may already hold more). */
    readonly maxSubscriptions: number,
  ) {
    this.writer = statePath === null ? null : new StateWriter(statePath, () => this.toState());
  }

  /** Opens the store, loading the state file when one is given (StateFileError if it is unusable). */
  static async open(statePath: string | null, maxSubscriptions = Number.POSITIVE_INFINITY): Promise<Store> {
    const store = new Store(statePath, maxSubscriptions);
    if (statePath !== null) {
      store.fill(await loadState(statePath));
      await store.writer?.prepare();
    }
    return store;
  }

  get(guid: string): StoredSubscription | undefined {
    return this.subscriptions.get(normalizeGuid(guid));
  }

  /** Every subscription, oldest first. */
  list(): StoredSubscription[] {
    return [...this.subscriptions.values()];
  }

  /** True when no new subscription may be added. */
  isFull(): boolean {
    return this.subscriptions.size >= this.maxSubscriptions;
  }

  /**
   * Saves a new subscription or replaces one in place (keeping its position in the list).
   * `owner` is the account that creates it; an update keeps the first owner.
   */
  put(subscription: StoredSubscription, owner?: string): Promise<void> {
    const guid = normalizeGuid(subscription.GUID);
    this.subscriptions.set(guid, subscription);
    if (owner !== undefined && !this.owners.has(guid)) this.owners.set(guid, owner);
    return this.persist();
  }

  /**
   * Whether `account` may see the subscription: its creator may, and so may everyone when its
   * creator is unknown (created before owners were recorded).
   */
  isVisibleTo(guid: string, account: string): boolean {
    const owner = this.owners.get(normalizeGuid(guid));
    return owner === undefined || owner === account;
  }

  /** Deletes a subscription; false when there was none. */
  async remove(guid: string): Promise<boolean> {
    this.owners.delete(normalizeGuid(guid));
    const removed = this.subscriptions.delete(normalizeGuid(guid));
    if (removed) await this.persist();
    return removed;
  }

  /** True when the work item was declared Closed; unknown work items are open. */
  isClosed(workItemGuid: string): boolean {
    return this.closedWorkItems.get(normalizeGuid(workItemGuid)) === true;
  }

  setWorkItem(guid: string, closed: boolean): Promise<void> {
    this.closedWorkItems.set(normalizeGuid(guid), closed);
    return this.persist();
  }

  /** Forgets every subscription and work item. */
  clear(): Promise<void> {
    this.fill(emptyState());
    return this.persist();
  }

  /** Resolves when every pending write has finished. */
  async flush(): Promise<void> {
    await this.writer?.idle();
  }

  private fill(state: PersistedState): void {
    this.subscriptions.clear();
    this.closedWorkItems.clear();
    this.owners.clear();
    for (const subscription of state.subscriptions)
      this.subscriptions.set(normalizeGuid(subscription.GUID), subscription);
    for (const [guid, item] of Object.entries(state.workItems))
      this.closedWorkItems.set(normalizeGuid(guid), item.Closed);
    for (const [guid, owner] of Object.entries(state.owners ?? {})) this.owners.set(normalizeGuid(guid), owner);
  }

  private toState(): PersistedState {
    return {
      version: 1,
      subscriptions: this.list(),
      workItems: Object.fromEntries([...this.closedWorkItems].map(([guid, closed]) => [guid, { Closed: closed }])),
      ...(this.owners.size > 0 ? { owners: Object.fromEntries(this.owners) } : {}),
    };
  }

  private async persist(): Promise<void> {
    await this.writer?.save();
  }
}

/**
 * Everything one running emulator holds, shared by its routes: state, tokens, limiter, faults,
 * counters and the delivery transport. `reset` is the admin API's "forget everything".
 */
import { Agent } from "undici";
import { fixedTokens, TokenRegistry } from "./auth";
import { loopbackOnlyLookup } from "./delivery";
import { dialectNamed, type Dialect } from "./dialect";
import type { DeliverySettings } from "./events";
import { FaultInjector } from "./faults";
import type { ResolvedOptions } from "./options";
import { RateLimiter } from "./rateLimit";
import { Stats } from "./stats";
import { Store } from "./store";

export class EmulatorContext {
  readonly stats = new Stats();
  readonly faults = new FaultInjector();
  readonly limiter: RateLimiter;
  readonly tokens: TokenRegistry;
  /** How requests are read and answers shaped (spec or vendor-docs). */
  readonly dialect: Dialect;
  /**
   * Aborted by a reset (then replaced) and at shutdown: it cuts short every injected delay, so a
   * request delayed before a reset is dropped instead of committing into the state after it.
   */
  private delays = new AbortController();
  /**
   * Connection pool for event deliveries, owned here so it closes with the emulator; its DNS
   * lookup refuses any address that is not loopback.
   */
  readonly deliveryAgent = new Agent({ connect: { lookup: loopbackOnlyLookup } });
  /** The port the server listens on, once it does: deliveries never target it. */
  listenPort: number | null = null;

  private constructor(
    readonly options: ResolvedOptions,
    readonly store: Store,
  ) {
    this.limiter = new RateLimiter(options.rateLimit, options.clock);
    this.tokens = new TokenRegistry(options.tokenTtlSeconds, options.clock, fixedTokens(options));
    this.dialect = dialectNamed(options.dialect);
  }

  /** Builds the context, loading the state file if one is configured. */
  static async create(options: ResolvedOptions): Promise<EmulatorContext> {
    return new EmulatorContext(options, await Store.open(options.statePath, options.maxSubscriptions));
  }

  /** Waits `ms` on the emulator's clock; rejects when a reset or shutdown cuts the delay short. */
  delay(ms: number): Promise<void> {
    const signal = this.delays.signal;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const cut = () => reject(signal.reason);
      signal.addEventListener("abort", cut, { once: true });
      this.options.clock.setTimeout(() => {
        signal.removeEventListener("abort", cut);
        resolve();
      }, ms);
    });
  }

  /** Ends every injected delay for good (the server is stopping). */
  abortDelays(): void {
    this.delays.abort();
  }

  /**
   * Forgets subscriptions, work items, counters, faults, token expiries and requests still held
   * by a delay fault; restores the start rate limit.
   */
  async reset(): Promise<void> {
    this.delays.abort();
    this.delays = new AbortController();
    this.stats.reset();
    this.faults.clear();
    this.tokens.reset();
    this.limiter.configure(this.options.rateLimit);
    await this.store.clear();
  }

  /** How event messages are sent, with the dialect's retries. */
  get deliverySettings(): DeliverySettings {
    return {
      product: this.options.product,
      dispatcher: this.deliveryAgent,
      timeoutMs: this.options.deliveryTimeoutMs,
      retries: this.dialect.deliveryRetries,
      sleep: this.options.deliverySleep,
      ownPort: this.listenPort,
    };
  }

  /** Waits for pending state writes and closes delivery connections (after the server has stopped). */
  async close(): Promise<void> {
    await this.store.flush();
    await this.deliveryAgent.close();
  }
}

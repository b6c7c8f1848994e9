/**
 * Client-side rate limiting shared by every request to one instance in this process.
 *
 * The service's limit is not published and 429s carry no Retry-After (spec, Limits), so the
 * limiter learns it: requests go out unpaced (or at `maxRequestsPerSecond`) until the first
 * 429, then at an adaptive rate, AIMD-style as in TCP congestion control: multiplicative
 * decrease on a 429, additive increase on success. A token-bucket server then sees a steady
 * stream just around its rate instead of bursts that mostly bounce, so a large `pulumi up`
 * finishes in close to N/R seconds with few 429s and no exhausted retries.
 *
 * `AimdRate` is the pure, clock-free policy; `RequestLimiter` queues callers by it with an
 * injectable clock; `InstanceLimiters` hands every client of one base URL the same limiter, so all
 * resources of a Pulumi run share one view of each instance's limit.
 */
import { systemClock, type Clock } from "../wire";

/** The clock lives in the wire layer (the emulator uses it too); re-exported for the client's users. */
export { systemClock, type Clock };

/** Tuning of the adaptive rate. */
export interface AimdOptions {
  /** Ceiling in requests per second; without it, unpaced until the first 429. */
  readonly maxRequestsPerSecond?: number;
  /** Factor applied to the rate on a 429. @default 0.7 */
  readonly decrease?: number;
  /** Requests per second gained per second of successful traffic. @default 2 */
  readonly increasePerSecond?: number;
  /** The rate never goes below this. @default 0.5 */
  readonly minRequestsPerSecond?: number;
}

/** How far back sends (and acceptances) are counted to estimate a rate. */
const ESTIMATE_WINDOW_MS = 1000;
/** Times kept for an estimate; beyond this many per window the estimate saturates, harmlessly. */
const ESTIMATE_CAPACITY = 512;
/**
 * On a 429 the rate never drops below this share of what the service accepted in the last
 * window: a saturated token bucket accepts exactly its refill rate, so that is the best guess of
 * the limit, and halving blindly below it (plain AIMD) wastes a fifth of the capacity on average.
 */
const ACCEPTED_SHARE = 0.95;

/** Timestamps in a fixed ring, counted over a trailing window. */
class RecentTimes {
  private readonly times = new Float64Array(ESTIMATE_CAPACITY);
  private count = 0;
  private next = 0;

  add(at: number): void {
    this.times[this.next] = at;
    this.next = (this.next + 1) % ESTIMATE_CAPACITY;
    this.count = Math.min(this.count + 1, ESTIMATE_CAPACITY);
  }

  /** Events per second over the window ending at `now`. */
  ratePerSecond(now: number): number {
    const since = now - ESTIMATE_WINDOW_MS;
    let n = 0;
    for (let i = 0; i < this.count; i++) if (this.times[i]! >= since) n += 1;
    return (n * 1000) / ESTIMATE_WINDOW_MS;
  }
}

/**
 * The adaptive rate: pure state driven by the caller's timestamps (milliseconds, any
 * monotonic origin), so it is tested with a fake clock.
 */
export class AimdRate {
  private currentRate: number;
  private ceiling: number;
  private lastDecreaseAt = -Infinity;
  /** Recent sends, to estimate the rate that drew the first 429. */
  private readonly sends = new RecentTimes();
  /** Recent acceptances, to estimate the service's limit at each 429. */
  private readonly accepted = new RecentTimes();
  private readonly decrease: number;
  private readonly increasePerSecond: number;
  private readonly floor: number;

  constructor(options: AimdOptions = {}) {
    this.ceiling = options.maxRequestsPerSecond ?? Infinity;
    this.currentRate = this.ceiling;
    this.decrease = options.decrease ?? 0.7;
    this.increasePerSecond = options.increasePerSecond ?? 2;
    this.floor = options.minRequestsPerSecond ?? 0.5;
  }

  /** Allowed requests per second; Infinity while unpaced. */
  get rate(): number {
    return this.currentRate;
  }

  /** Minimum spacing between sends, 0 while unpaced. */
  get intervalMs(): number {
    return Number.isFinite(this.currentRate) ? 1000 / this.currentRate : 0;
  }

  /** Lowers the ceiling (never raises it): two clients of one instance asking for different limits get the lower. */
  lowerCeiling(maxRequestsPerSecond: number): void {
    this.ceiling = Math.min(this.ceiling, maxRequestsPerSecond);
    this.currentRate = Math.min(this.currentRate, this.ceiling);
  }

  /** Records a send at `now`. */
  sent(now: number): void {
    // Only needed until the rate is first learned.
    if (!Number.isFinite(this.currentRate)) this.sends.add(now);
  }

  /** Additive increase: +`increasePerSecond` per second of traffic at the current rate. */
  succeeded(at: number): void {
    this.accepted.add(at);
    if (!Number.isFinite(this.currentRate)) return;
    this.currentRate = Math.min(this.ceiling, this.currentRate + this.increasePerSecond / this.currentRate);
  }

  /**
   * Decrease on a 429 for a request sent at `sentAt`: multiplicative, but never below what the
   * service just accepted, nor above where we were. A 429 for a request sent before the last
   * decrease is ignored: it reflects the old rate, and counting each of a burst's 429s would
   * collapse the rate to the floor.
   */
  rateLimited(sentAt: number, now: number): void {
    if (sentAt < this.lastDecreaseAt) return;
    // Before the first 429 the rate is unpaced: what we were sending is what was refused.
    const base = Number.isFinite(this.currentRate)
      ? this.currentRate
      : Math.max(this.floor, this.sends.ratePerSecond(now));
    const acceptedFloor = Math.min(base, this.accepted.ratePerSecond(now) * ACCEPTED_SHARE);
    this.currentRate = Math.max(this.floor, base * this.decrease, acceptedFloor);
    this.lastDecreaseAt = now;
  }
}

/**
 * Queues requests so they leave no faster than `AimdRate` allows. While unpaced, `acquire`
 * returns synchronously and costs nothing, which keeps the client's per-call overhead low.
 */
export class RequestLimiter {
  private readonly waiting: Array<() => void> = [];
  private lastSendAt = -Infinity;
  private timerPending = false;
  private lastProgress = -Infinity;

  constructor(
    readonly rate: AimdRate = new AimdRate(),
    private readonly clock: Clock = systemClock,
  ) {}

  /** The current time of the limiter's clock; responses report their send time in it. */
  now(): number {
    return this.clock.now();
  }

  /**
   * When the instance last accepted a request (any status but 429) from this process. A call
   * that keeps getting 429 gives up only when nobody has made progress for its deadline:
   * waiting in line behind successful requests is pacing, not failure.
   */
  get lastProgressAt(): number {
    return this.lastProgress;
  }

  /** Requests queued behind the rate right now. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Takes a send slot. Returns undefined when the request may go now, or a promise that
   * resolves when its turn comes; queued callers go first-come, first-served.
   *
   * @param now the current time, when the caller already read the clock.
   */
  acquire(now: number = this.clock.now()): Promise<void> | undefined {
    if (this.waiting.length === 0 && now >= this.nextSlot()) {
      this.markSent(now);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Feeds back the status of a request sent at `sentAt`: 429 slows down, anything else lets the rate grow. */
  observe(status: number, sentAt: number): void {
    if (status === 429) {
      this.rate.rateLimited(sentAt, this.clock.now());
    } else {
      this.rate.succeeded(sentAt);
      // The send time of the accepted request stands for "now" closely enough, without another clock read.
      this.lastProgress = Math.max(this.lastProgress, sentAt);
    }
  }

  private nextSlot(): number {
    return this.lastSendAt + this.rate.intervalMs;
  }

  private markSent(now: number): void {
    this.lastSendAt = now;
    this.rate.sent(now);
  }

  /** Arms one timer for the head of the queue; the rate is re-read each time, so a decrease applies at once. */
  private schedule(): void {
    if (this.timerPending) return;
    this.timerPending = true;
    this.clock.setTimeout(
      () => {
        this.timerPending = false;
        const now = this.clock.now();
        if (now >= this.nextSlot()) {
          this.markSent(now);
          this.waiting.shift()?.();
        }
        if (this.waiting.length > 0) this.schedule();
      },
      Math.max(0, this.nextSlot() - this.clock.now()),
    );
  }
}

/**
 * One limiter per instance, keyed by base URL: every client of an instance that is given the
 * same `InstanceLimiters` shares one view of the service's limit. Owned by whoever owns the
 * clients (a provider session, a test), never by the module, so two sessions never share
 * pacing by accident and tests start from a clean slate.
 */
export class InstanceLimiters {
  private readonly byBaseUrl = new Map<string, RequestLimiter>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** The limiter of the instance at `baseUrl`; `maxRequestsPerSecond` can only lower its ceiling. */
  for(baseUrl: string, maxRequestsPerSecond?: number): RequestLimiter {
    let limiter = this.byBaseUrl.get(baseUrl);
    if (limiter === undefined) {
      limiter = new RequestLimiter(new AimdRate({ maxRequestsPerSecond }), this.clock);
      this.byBaseUrl.set(baseUrl, limiter);
    } else if (maxRequestsPerSecond !== undefined) {
      limiter.rate.lowerCeiling(maxRequestsPerSecond);
    }
    return limiter;
  }
}

/**
 * The service's rate limit, emulated as one token bucket shared by every caller of the
 * configuration and legacy APIs (the spec shows no per-client limits).
 */
import type { Clock } from "../provider/wire";
import type { RateLimitSettings } from "./options";

/** A token bucket: `burst` requests at once, refilled at `requestsPerSecond`. Null settings = no limit. */
export class RateLimiter {
  private settings: Required<RateLimitSettings> | null = null;
  private tokens = 0;
  private refilledAt = 0;

  /** @param clock monotonic: wall-clock jumps must not refill or drain the bucket. */
  constructor(
    settings: Required<RateLimitSettings> | null,
    private readonly clock: Pick<Clock, "now">,
  ) {
    this.configure(settings);
  }

  /** Replaces the settings and starts with a full bucket, as a freshly started service would. */
  configure(settings: Required<RateLimitSettings> | null): void {
    this.settings = settings;
    this.tokens = settings?.burst ?? 0;
    this.refilledAt = this.clock.now();
  }

  /** The current settings, null when off. */
  current(): Required<RateLimitSettings> | null {
    return this.settings;
  }

  /** Takes one token; false means the request must get 429. */
  tryTake(): boolean {
    const settings = this.settings;
    if (settings === null) return true;
    const now = this.clock.now();
    this.tokens = Math.min(settings.burst, this.tokens + ((now - this.refilledAt) / 1000) * settings.requestsPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

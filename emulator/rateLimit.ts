/**
 * The service's rate limit, emulated as one token bucket shared by every caller of the
 * configuration and legacy APIs (the spec shows no per-client limits).
 */
import type { RateLimitSettings } from "./options";

/** Milliseconds from a monotonic clock: wall-clock jumps must not refill or drain the bucket. */
function nowMs(): number {
  return performance.now();
}

/** A token bucket: `burst` requests at once, refilled at `requestsPerSecond`. Null settings = no limit. */
export class RateLimiter {
  private settings: Required<RateLimitSettings> | null = null;
  private tokens = 0;
  private refilledAt = 0;

  constructor(settings: Required<RateLimitSettings> | null) {
    this.configure(settings);
  }

  /** Replaces the settings and starts with a full bucket, as a freshly started service would. */
  configure(settings: Required<RateLimitSettings> | null): void {
    this.settings = settings;
    this.tokens = settings?.burst ?? 0;
    this.refilledAt = nowMs();
  }

  /** The current settings, null when off. */
  current(): Required<RateLimitSettings> | null {
    return this.settings;
  }

  /** Takes one token; false means the request must get 429. */
  tryTake(): boolean {
    const settings = this.settings;
    if (settings === null) return true;
    const now = nowMs();
    this.tokens = Math.min(settings.burst, this.tokens + ((now - this.refilledAt) / 1000) * settings.requestsPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Time and timers, injectable so that code that waits or expires runs on a fake clock in tests.
 * One definition for the client (rate limiter, OAuth token renewal) and the emulator (token
 * expiry, rate limit, delay faults); it sits in the wire layer because both import it.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences matter). */
  now(): number;
  setTimeout(callback: () => void, ms: number): void;
}

/** The real clock: monotonic, immune to wall-clock jumps. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    setTimeout(callback, ms);
  },
};

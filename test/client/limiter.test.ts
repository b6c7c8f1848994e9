import { describe, expect, it } from "vitest";
import { AimdRate, InstanceLimiters, RequestLimiter, backoffMs } from "../../provider/client";
import { FakeClock } from "../support/fakeClock";

/** A seeded PRNG so the jitter in the simulation is repeatable. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("AimdRate", () => {
  it("is unpaced until the first 429, then starts below the rate that drew it", () => {
    const rate = new AimdRate();
    expect(rate.rate).toBe(Infinity);
    expect(rate.intervalMs).toBe(0);
    for (let i = 0; i < 100; i++) rate.sent(i * 5); // 100 sends in 0.5 s
    rate.rateLimited(495, 500);
    expect(rate.rate).toBeCloseTo(70); // 100 sends in the last second × 0.7
  });

  it("decreases once per round: 429s of requests sent before the decrease are ignored", () => {
    const rate = new AimdRate({ maxRequestsPerSecond: 100 });
    rate.rateLimited(10, 20);
    expect(rate.rate).toBeCloseTo(70);
    rate.rateLimited(15, 21); // sent before the decrease at 20
    expect(rate.rate).toBeCloseTo(70);
    rate.rateLimited(25, 30);
    expect(rate.rate).toBeCloseTo(49);
  });

  it("increases additively, about increasePerSecond per second of traffic, up to the ceiling", () => {
    const rate = new AimdRate({ maxRequestsPerSecond: 20, increasePerSecond: 4 });
    rate.rateLimited(0, 0);
    expect(rate.rate).toBeCloseTo(14);
    for (let i = 0; i < 14; i++) rate.succeeded(i * 70); // one second of successes at 14/s
    expect(rate.rate).toBeGreaterThan(17.5);
    expect(rate.rate).toBeLessThan(18.1);
    for (let i = 0; i < 1000; i++) rate.succeeded(1000 + i);
    expect(rate.rate).toBe(20);
  });

  it("on a 429, never drops below 95% of what the service just accepted", () => {
    const rate = new AimdRate({ maxRequestsPerSecond: 22 });
    // A saturated token bucket of 20/s: one second of acceptances at its rate, then a 429.
    for (let i = 0; i < 20; i++) rate.succeeded(1000 + i * 50);
    rate.rateLimited(1990, 2000);
    expect(rate.rate).toBeCloseTo(19, 0); // plain ×0.7 would give 15.4
    // Never raised by a 429: accepting more than we send cannot lift the rate.
    const low = new AimdRate({ maxRequestsPerSecond: 10 });
    for (let i = 0; i < 40; i++) low.succeeded(1000 + i * 25);
    low.rateLimited(1990, 2000);
    expect(low.rate).toBe(10);
  });

  it("never goes below the floor", () => {
    const rate = new AimdRate({ maxRequestsPerSecond: 1, minRequestsPerSecond: 0.5 });
    for (let t = 0; t < 20; t++) rate.rateLimited(t, t);
    expect(rate.rate).toBe(0.5);
  });
});

describe("RequestLimiter", () => {
  it("lets requests through synchronously while unpaced", () => {
    const limiter = new RequestLimiter(new AimdRate(), new FakeClock());
    for (let i = 0; i < 1000; i++) expect(limiter.acquire()).toBeUndefined();
  });

  it("spaces sends by the rate, first come first served", async () => {
    const clock = new FakeClock();
    const limiter = new RequestLimiter(new AimdRate({ maxRequestsPerSecond: 10 }), clock);
    const sentAt: Array<[number, number]> = [];
    const callers = [0, 1, 2, 3].map(async (id) => {
      await limiter.acquire();
      sentAt.push([id, clock.now()]);
    });
    await clock.run();
    await Promise.all(callers);
    expect(sentAt).toEqual([
      [0, 0],
      [1, 100],
      [2, 200],
      [3, 300],
    ]);
  });

  /**
   * 200 callers at once against a token bucket of 20/s with burst 20 (the storm the product must
   * survive). Ideal: (200 − 20) / 20 = 9 s. Every caller retries a 429 after full-jitter backoff.
   */
  it("drives a token-bucket server near its rate: 200 requests at 20/s take close to N/R", async () => {
    const clock = new FakeClock();
    const limiter = new RequestLimiter(new AimdRate(), clock);
    const random = seeded(7);
    const R = 20;
    const B = 20;
    let tokens = B;
    let refilledAt = 0;
    const take = () => {
      tokens = Math.min(B, tokens + ((clock.now() - refilledAt) / 1000) * R);
      refilledAt = clock.now();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    };
    let rateLimited = 0;
    let maxAttempts = 0;
    const call = async () => {
      for (let attempt = 1; ; attempt++) {
        await limiter.acquire();
        const sentAt = clock.now();
        await clock.sleep(2); // round trip
        const ok = take();
        limiter.observe(ok ? 200 : 429, sentAt);
        if (ok) return void (maxAttempts = Math.max(maxAttempts, attempt));
        rateLimited += 1;
        await clock.sleep(backoffMs(attempt, { baseMs: 250, capMs: 10_000 }, random));
      }
    };
    const calls = Array.from({ length: 200 }, call);
    await clock.run();
    await Promise.all(calls);

    const seconds = clock.now() / 1000;
    expect(seconds).toBeGreaterThanOrEqual(9);
    expect(seconds).toBeLessThan(9 * 1.15);
    // The first burst bounces (180 over the bucket), then only a handful while the rate is learned.
    expect(rateLimited).toBeLessThan(230);
    expect(maxAttempts).toBeLessThanOrEqual(5);
  });
});

describe("InstanceLimiters", () => {
  it("gives every client of one base URL the same limiter; a ceiling can only be lowered", () => {
    const limiters = new InstanceLimiters();
    const a = limiters.for("http://shared.test:1", 50);
    const b = limiters.for("http://shared.test:1", 10);
    const c = limiters.for("http://shared.test:1", 80);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a.rate.rate).toBe(10);
    expect(limiters.for("http://other.test:1")).not.toBe(a);
  });

  it("is owned, not global: another set starts from a clean slate", () => {
    const first = new InstanceLimiters().for("http://shared.test:1", 5);
    const second = new InstanceLimiters().for("http://shared.test:1");
    expect(second).not.toBe(first);
    expect(second.rate.rate).toBe(Infinity);
  });
});

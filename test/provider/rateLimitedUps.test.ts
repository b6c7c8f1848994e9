/**
 * Issue 44 saw, once in about ten rate-limited `up`s, `Running program … failed with an unhandled
 * exception` with the detail lost. A few rate-limited "ups" in process (bench/rateLimitedUps.ts,
 * the loop `npm run bench -- --only ups` runs 50 times): every operation must succeed, every
 * rate-limited retry must have said so, nothing may be left behind (a duplicate Subscribe would
 * be), and nothing may reject unhandled (vitest fails the file on any unhandled rejection).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { RATE_LIMITED_UPS_BUCKET, RATE_LIMITED_UPS_FAULTS, runRateLimitedUps } from "../../bench/rateLimitedUps";
import { EmulatorHarness } from "../support/emulatorHarness";

/** Enough for a 429 on about every up (the third create at once meets an empty bucket); the long loop is the bench's. */
const UPS = 5;

let emulator: EmulatorHarness;
beforeAll(async () => {
  emulator = await EmulatorHarness.start({ rateLimit: RATE_LIMITED_UPS_BUCKET });
});
afterAll(() => emulator.close());

it(`${UPS} rate-limited ups and destroys all succeed, leave nothing behind, and every 429 retry says so`, async () => {
  expect((await emulator.admin("PUT", "/faults", RATE_LIMITED_UPS_FAULTS)).status).toBe(200);
  const result = await runRateLimitedUps(emulator.url, UPS);
  const stats = (await emulator.admin("GET", "/stats")).json as { status: Record<string, number> };
  expect(result.failures).toEqual([]);
  expect(result.leftBehind).toBe(0);
  // The instance did rate-limit, and each retry after a 429 was announced on its subscription.
  expect(stats.status["429"]).toBeGreaterThan(0);
  expect(result.progressLines.length).toBeGreaterThan(0);
  for (const line of result.progressLines)
    expect(line).toMatch(/^(BusinessObjectCreated → \S+|subscription \S+): rate limited \(429\): attempt \d+, /);
}, 60_000);

/**
 * A 429 storm against the real emulator: many concurrent creates against a token-bucket limit
 * must all succeed without a single RateLimitedError, and the limiter must learn the rate (few
 * 429s past the first burst). How close to N/R it gets is a benchmark's question
 * (`rate_limited_up_vs_floor`), never a timed assertion here.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { InstanceLimiters, WebhookSubscriptionClient, type RequestEvent } from "../../provider/client";
import { Webhook } from "../../provider/wire";
import { EmulatorHarness } from "../support/emulatorHarness";

const N = 200;
const RATE = 20;
const BURST = 20;

let emulator: EmulatorHarness;
beforeAll(async () => {
  emulator = await EmulatorHarness.start({ rateLimit: { requestsPerSecond: RATE, burst: BURST } });
});
afterAll(async () => {
  await emulator.close();
});

it(`${N} concurrent subscribes against ${RATE} req/s (burst ${BURST}) all succeed, and the limiter learns the rate`, async () => {
  const events: RequestEvent[] = [];
  // One client per create, sharing one limiter of the instance (as a provider session's clients do).
  const limiter = new InstanceLimiters().for(emulator.url);
  const clients = Array.from(
    { length: N },
    () =>
      new WebhookSubscriptionClient({
        baseUrl: emulator.url,
        token: "dev-builder",
        limiter,
        onRequest: (event) => events.push(event),
      }),
  );
  const started = performance.now();
  const results = await Promise.allSettled(
    clients.map((client, i) =>
      client.subscribe({
        webhook: Webhook.BusinessObjectCreated,
        filterObjectType: 2,
        subscriberUrl: `https://hooks.example.com/storm/${i}`,
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));

  const rejected = results.filter((r) => r.status === "rejected");
  expect(rejected).toEqual([]);
  const stats = (await emulator.admin("GET", "/stats")).json;
  expect(stats.status["200"]).toBe(N);
  const ideal = (N - BURST) / RATE;
  // The first burst bounces (everything above the bucket); after that only a few while the rate is learned.
  expect(stats.status["429"] ?? 0).toBeLessThan(N - BURST + 60);
  expect(Math.max(...events.map((e) => e.attempt))).toBeLessThanOrEqual(6);
  console.log(`storm: ${N} creates in ${seconds.toFixed(2)} s (ideal ${ideal} s), ${stats.status["429"] ?? 0} × 429`);
}, 60_000);

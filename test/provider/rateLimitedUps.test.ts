/**
 * Issue 44 saw, once in about ten rate-limited `up`s, `Running program … failed with an unhandled
 * exception` with the detail lost. This runs 50 rate-limited "ups" in process, as the engine drives
 * a provider process: a fresh lifecycle, configured, creating a fleet at once against an instance
 * whose token bucket (burst 2) is below the burst of creates and which also refuses a fifth of the
 * requests with 429; then the fleet is destroyed. Every operation must succeed, every rate-limited retry must have
 * said so, and nothing may reject unhandled (vitest fails the file on any unhandled rejection).
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createProvider } from "../../provider/core/lifecycle";
import type { SubscriptionInputs } from "../../provider/core/inputs";
import { EmulatorHarness } from "../support/emulatorHarness";

const UPS = 50;
const FLEET = 3;

let emulator: EmulatorHarness;
beforeAll(async () => {
  emulator = await EmulatorHarness.start({ rateLimit: { requestsPerSecond: 100, burst: 2 } });
});
afterAll(() => emulator.close());

function subscription(up: number, n: number): SubscriptionInputs {
  return { webhook: 3, filterObjectType: 2, subscriberUrl: `https://hooks.example.com/up-${up}/${n}` };
}

it(`${UPS} rate-limited ups and destroys all succeed, and every 429 retry says so`, async () => {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    // A share of 429s on top of the bucket, as in the 70% run (lower, and a small fleet, to keep CI short).
    await emulator.admin("PUT", "/faults", [{ kind: "status", status: 429, probability: 0.2 }]);
    for (let up = 0; up < UPS; up++) {
      // A fresh provider process per run, as the engine starts one.
      const provider = createProvider({ env: {} });
      const config: Record<string, string> = { "webhooks:baseUrl": emulator.url, "webhooks:token": "dev-builder" };
      await provider.configure({ config: { get: (key) => config[key] } });
      const created = await Promise.allSettled(
        Array.from({ length: FLEET }, (_, n) => provider.create(subscription(up, n))),
      );
      expect(created.filter((r) => r.status === "rejected")).toEqual([]);
      const ids = created.map((r) => (r as PromiseFulfilledResult<{ id: string }>).value.id);
      const deleted = await Promise.allSettled(ids.map((id) => provider.delete(id)));
      expect(deleted.filter((r) => r.status === "rejected")).toEqual([]);
    }
    const stats = (await emulator.admin("GET", "/stats")).json as { status: Record<string, number> };
    console.log(`${UPS} ups of ${FLEET}: ${JSON.stringify(stats.status)}, ${lines.length} progress lines`);
    // The instance did rate-limit, and each retry after a 429 was announced on its subscription.
    expect(stats.status["429"]).toBeGreaterThan(UPS);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(/^(BusinessObjectCreated → \S+|subscription \S+): rate limited \(429\): attempt \d+, /);
  } finally {
    spy.mockRestore();
  }
}, 120_000);

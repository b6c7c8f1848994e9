/** RepeatFilter and messageKey: repeats are dropped, memory stays bounded, time is injected. */
import { describe, expect, it } from "vitest";
import { RepeatFilter, RepeatFilterOptionsError, messageKey } from "../../provider/receiver";

const SUBSCRIPTION = "6F1C2A3B-4D5E-4F60-8A9B-0C1D2E3F4A5B";
const emulatorMessage = (event: string) =>
  JSON.stringify({
    Webhook: 3,
    WebhookName: "BusinessObjectCreated",
    SubscriptionGUID: SUBSCRIPTION,
    EventGUID: event,
  });

describe("messageKey", () => {
  it("keys an emulator message on its subscription and event, whatever else differs", () => {
    const a = messageKey(emulatorMessage("e1"));
    expect(a).toBe(`event:${SUBSCRIPTION.toLowerCase()}:e1`);
    expect(messageKey(JSON.stringify({ EventGUID: "E1", SubscriptionGUID: SUBSCRIPTION, Extra: 1 }))).toBe(a);
    expect(messageKey(emulatorMessage("e2"))).not.toBe(a);
  });

  it("keys any other body on its bytes: the same message gives the same key, string or bytes", () => {
    const body = '{"Reference":"202234-C","Status":1}';
    expect(messageKey(body)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(messageKey(Buffer.from(body))).toBe(messageKey(body));
    expect(messageKey('{"Reference":"202234-C","Status":2}')).not.toBe(messageKey(body));
    expect(messageKey("not json")).toMatch(/^sha256:/);
  });
});

describe("RepeatFilter", () => {
  it("says true the first time and false for a repeat", () => {
    const filter = new RepeatFilter({ now: () => 0 });
    expect(filter.firstSeen("a")).toBe(true);
    expect(filter.firstSeen("a")).toBe(false);
    expect(filter.firstSeen("b")).toBe(true);
  });

  it("forgets a key after ttlMs", () => {
    let now = 1_000;
    const filter = new RepeatFilter({ ttlMs: 100, now: () => now });
    filter.firstSeen("a");
    now += 99;
    expect(filter.firstSeen("a")).toBe(false);
    now += 1;
    expect(filter.firstSeen("a")).toBe(true);
  });

  it("keeps at most maxEntries keys, forgetting the oldest first", () => {
    let now = 0;
    const filter = new RepeatFilter({ maxEntries: 3, now: () => now++ });
    for (const key of ["a", "b", "c", "d"]) filter.firstSeen(key);
    expect(filter.size).toBe(3);
    expect(filter.firstSeen("b")).toBe(false);
    expect(filter.firstSeen("a")).toBe(true);
  });

  it("drops expired keys as time passes, so memory follows the traffic", () => {
    let now = 0;
    const filter = new RepeatFilter({ ttlMs: 10, now: () => now });
    for (let i = 0; i < 100; i++) filter.firstSeen(`k${i}`);
    now = 50;
    filter.firstSeen("fresh");
    expect(filter.size).toBe(1);
  });

  it.each([
    [{ ttlMs: 0 }, "ttlMs must be a positive number, got 0"],
    [{ maxEntries: Number.NaN }, "maxEntries must be a positive number, got NaN"],
  ])("refuses %o", (options, message) => {
    expect(() => new RepeatFilter(options)).toThrow(new RepeatFilterOptionsError(message));
  });
});

/**
 * `GET /_emulator/stats` (what benchmarks count API calls with) and `POST /_emulator/reset`
 * (forget everything).
 */
import { describe, expect, it } from "vitest";
import { useEmulator, objectScopedBody, typeScopedBody } from "../support/emulatorHarness";
import { FakeClock } from "../support/fakeClock";

const CLOSED = "c105ed00-0000-4000-8000-0000000000aa";

const clock = new FakeClock();
const emulator = useEmulator({ rateLimit: { requestsPerSecond: 1000, burst: 1000 }, clock });

describe("stats", () => {
  it("counts API requests per operation (both APIs) and per status; admin calls are not counted", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: saved.GUID } });
    await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: CLOSED } });
    await emulator.config("GetAllWebhookSubscriptions", { auth: null });
    await emulator.legacy("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: "x" }) });
    await emulator.config("UpdateWebhookSubscription", { version: "7", body: {} });
    await emulator.admin("PUT", `/work-items/${CLOSED}`, { Closed: true });
    await emulator.config("Nothing" as never);
    const stats = await emulator.admin("GET", "/stats");
    expect(stats.json).toEqual({
      requests: {
        SubscribeToWebhook: 2,
        GetWebhookSubscription: 2,
        GetAllWebhookSubscriptions: 1,
        UpdateWebhookSubscription: 1,
      },
      status: { "200": 2, "404": 1, "401": 1, "400": 2 },
      faults: {},
    });
  });

  it("starts at zero", async () => {
    expect((await emulator.admin("GET", "/stats")).json).toEqual({ requests: {}, status: {}, faults: {} });
  });
});

describe("reset", () => {
  it("forgets subscriptions, work items, counters, faults, rate-limit changes and token expiries", async () => {
    await emulator.subscribe(typeScopedBody());
    await emulator.admin("PUT", `/work-items/${CLOSED}`, { Closed: true });
    await emulator.admin("PUT", "/faults", [{ operation: "GetWebhookSubscription", kind: "status", status: 503 }]);
    await emulator.admin("PUT", "/rate-limit", { requestsPerSecond: 0.01, burst: 1 });
    await emulator.admin("POST", "/tokens/dev-reader/expire");

    expect((await emulator.admin("POST", "/reset")).json).toEqual({ ok: true });

    expect((await emulator.admin("GET", "/stats")).json).toEqual({ requests: {}, status: {}, faults: {} });
    // Many calls in a row: the start rate limit (1000/s) is back, not the 0.01/s one.
    for (let i = 0; i < 5; i++) expect(await emulator.all()).toEqual([]);
    const get = await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: CLOSED } });
    expect(get.status).toBe(404);
    expect((await emulator.config("SubscribeToWebhook", { body: objectScopedBody(1, CLOSED) })).status).toBe(200);
    expect((await emulator.config("GetAllWebhookSubscriptions", { auth: "Bearer dev-reader" })).status).toBe(403);
  });

  it("drops a request still held by a delay fault, so it cannot commit after the reset", async () => {
    await emulator.admin("PUT", "/faults", [
      { operation: "SubscribeToWebhook", kind: "delay", delayMs: 400, count: 1 },
    ]);
    const delayed = emulator.config("SubscribeToWebhook", { body: typeScopedBody() }).then(
      (result) => result.status,
      () => "connection dropped",
    );
    await emulator.faultApplied("delay"); // the request is now waiting in the delay
    await emulator.admin("POST", "/reset");
    expect(await delayed).toBe("connection dropped");
    clock.advance(500); // past the delay: nothing commits late
    expect(await emulator.all()).toEqual([]);
  });
});

/**
 * Fault injection (product.md): connection resets before and after commit, forced statuses and
 * delays, by operation, probability and count.
 */
import { describe, expect, it } from "vitest";
import { EmulatorHarness, useEmulator, typeScopedBody } from "../support/emulatorHarness";
import { FakeClock } from "../support/fakeClock";

const clock = new FakeClock();
const emulator = useEmulator({ clock });

async function setFaults(body: unknown): Promise<void> {
  const result = await emulator.admin("PUT", "/faults", body);
  expect(result.status).toBe(200);
}

/** The statuses of `n` GetAll calls in a row. */
async function getAllStatuses(n: number): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < n; i++) statuses.push((await emulator.config("GetAllWebhookSubscriptions")).status);
  return statuses;
}

describe("kinds", () => {
  it("reset-before-commit drops the connection and saves nothing", async () => {
    await setFaults([{ operation: "SubscribeToWebhook", kind: "reset-before-commit", count: 1 }]);
    await expect(emulator.config("SubscribeToWebhook", { body: typeScopedBody() })).rejects.toThrow(TypeError);
    expect(await emulator.all()).toEqual([]);
  });

  it("reset-after-commit saves the change, then drops the connection", async () => {
    await setFaults([{ operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 }]);
    await expect(
      emulator.config("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: "https://lost.example/" }) }),
    ).rejects.toThrow(TypeError);
    const all = await emulator.all();
    expect(all).toHaveLength(1);
    expect(all[0]?.SubscriberURL).toBe("https://lost.example/");
  });

  it("reset-after-commit on Unsubscribe deletes", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    await setFaults([{ operation: "Unsubscribe", kind: "reset-after-commit" }]);
    await expect(emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: saved.GUID } })).rejects.toThrow(
      TypeError,
    );
    expect(await emulator.all()).toEqual([]);
  });

  it("status answers with the status and body without doing anything", async () => {
    await setFaults([
      { operation: "SubscribeToWebhook", kind: "status", status: 503, body: '{"Error":"maintenance"}', count: 1 },
      { operation: "SubscribeToWebhook", kind: "status", status: 502, body: "bad gateway", count: 1 },
      { operation: "SubscribeToWebhook", kind: "status", status: 500, count: 1 },
    ]);
    const json = await emulator.config("SubscribeToWebhook", { body: typeScopedBody() });
    expect([json.status, json.headers.get("content-type"), json.json]).toEqual([
      503,
      "application/json; charset=utf-8",
      { Error: "maintenance" },
    ]);
    const text = await emulator.config("SubscribeToWebhook", { body: typeScopedBody() });
    expect([text.status, text.headers.get("content-type"), text.text]).toEqual([
      502,
      "text/plain; charset=utf-8",
      "bad gateway",
    ]);
    const empty = await emulator.config("SubscribeToWebhook", { body: typeScopedBody() });
    expect([empty.status, empty.text]).toEqual([500, ""]);
    expect(await emulator.all()).toEqual([]);
  });

  it("delay waits, then does the operation", async () => {
    await setFaults([{ operation: "SubscribeToWebhook", kind: "delay", delayMs: 300 }]);
    let answered = false;
    const result = emulator.config("SubscribeToWebhook", { body: typeScopedBody() }).finally(() => (answered = true));
    await emulator.faultApplied("delay");
    clock.advance(299);
    expect(await emulator.all()).toHaveLength(0);
    expect(answered).toBe(false);
    clock.advance(1);
    expect((await result).status).toBe(200);
    expect(await emulator.all()).toHaveLength(1);
  });

  it("a pending delay does not hold up close()", async () => {
    // On a clock that never moves, the delay never ends: close() resolving at all proves it does not wait for it.
    const delayed = await EmulatorHarness.start({ clock: new FakeClock() });
    await delayed.admin("PUT", "/faults", [{ operation: "*", kind: "delay", delayMs: 60_000 }]);
    const pending = delayed.config("GetAllWebhookSubscriptions");
    await delayed.faultApplied("delay");
    await delayed.close();
    await expect(pending).rejects.toThrow(TypeError);
  });
});

describe("selection", () => {
  it("applies only to the named operation; * applies to every operation", async () => {
    await setFaults([{ operation: "SubscribeToWebhook", kind: "status", status: 503 }]);
    expect(await getAllStatuses(2)).toEqual([200, 200]);
    await setFaults([{ operation: "*", kind: "status", status: 503 }]);
    expect(await getAllStatuses(1)).toEqual([503]);
    expect(
      (
        await emulator.legacy("Unsubscribe", {
          query: { webHookSubscriptionGUID: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b" },
        })
      ).status,
    ).toBe(503);
  });

  it("fires `count` times, then stops; rules are tried in order", async () => {
    await setFaults([
      { operation: "GetAllWebhookSubscriptions", kind: "status", status: 503, count: 2 },
      { operation: "*", kind: "status", status: 502, count: 1 },
    ]);
    expect(await getAllStatuses(5)).toEqual([503, 503, 502, 200, 200]);
  });

  it("probability 0 never fires; a seed makes probabilistic faults repeatable", async () => {
    await setFaults([{ operation: "*", kind: "status", status: 503, probability: 0 }]);
    expect(await getAllStatuses(5)).toEqual([200, 200, 200, 200, 200]);
    const rules = [{ operation: "GetAllWebhookSubscriptions", kind: "status", status: 503, probability: 0.5 }];
    await setFaults({ seed: 42, rules });
    const first = await getAllStatuses(20);
    await setFaults({ seed: 42, rules });
    const second = await getAllStatuses(20);
    expect(second).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it("runs after auth and the rate limit: an unauthenticated call is not faulted", async () => {
    await setFaults([{ operation: "*", kind: "status", status: 503, count: 1 }]);
    expect((await emulator.config("GetAllWebhookSubscriptions", { auth: null })).status).toBe(401);
    expect(await getAllStatuses(1)).toEqual([503]);
  });

  it("DELETE clears every rule", async () => {
    await setFaults([{ operation: "*", kind: "status", status: 503 }]);
    expect((await emulator.admin("DELETE", "/faults")).status).toBe(200);
    expect(await getAllStatuses(1)).toEqual([200]);
  });

  it("counts injected faults by kind in the stats", async () => {
    await setFaults([
      { operation: "GetAllWebhookSubscriptions", kind: "status", status: 503, count: 2 },
      { operation: "SubscribeToWebhook", kind: "reset-before-commit", count: 1 },
    ]);
    await getAllStatuses(3);
    await emulator.config("SubscribeToWebhook", { body: typeScopedBody() }).catch(() => undefined);
    const stats = (await emulator.admin("GET", "/stats")).json;
    expect(stats.faults).toEqual({ status: 2, "reset-before-commit": 1 });
    // A reset connection has no status to count.
    expect(stats.status).toEqual({ "200": 1, "503": 2 });
    expect(stats.requests).toEqual({ GetAllWebhookSubscriptions: 3, SubscribeToWebhook: 1 });
  });
});

describe("validation of rules", () => {
  it.each([
    [[{ operation: "Nope", kind: "status", status: 503 }], "operation"],
    [[{ operation: "*", kind: "explode" }], "kind"],
    [[{ operation: "*", kind: "status" }], 'a "status" fault needs "status"'],
    [[{ operation: "*", kind: "status", status: 42 }], "status"],
    [[{ operation: "*", kind: "delay" }], 'a "delay" fault needs "delayMs"'],
    [[{ operation: "*", kind: "delay", delayMs: -1 }], "delayMs"],
    [[{ operation: "*", kind: "reset-before-commit", status: 503 }], '"status" and "body" only apply to kind "status"'],
    [[{ operation: "*", kind: "reset-after-commit", probability: 2 }], "probability"],
    [[{ operation: "*", kind: "reset-after-commit", count: 0 }], "count"],
    [[{ operation: "*", kind: "reset-after-commit", extra: true }], "Unrecognized key"],
    [{ seed: "x", rules: [] }, "seed"],
    [{ operation: "*", kind: "delay", delayMs: 5 }, "rules"],
  ])("refuses %j with 400 naming the problem, keeping the old rules", async (body, mentions) => {
    await setFaults([{ operation: "*", kind: "status", status: 503 }]);
    const result = await emulator.admin("PUT", "/faults", body);
    expect(result.status).toBe(400);
    expect(result.json.Error).toContain(mentions);
    expect(await getAllStatuses(1)).toEqual([503]);
  });

  it("refuses malformed JSON with 400", async () => {
    const result = await fetch(`${emulator.url}/_emulator/faults`, { method: "PUT", body: "[{" });
    expect(result.status).toBe(400);
  });
});

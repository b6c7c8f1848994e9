/**
 * `vendor-docs` deliveries: failed messages are retried 3 times with backoff, the same message
 * every time (so receivers see duplicates), and the "Webhook Test – Simulate Event" endpoint.
 * The backoff goes through an injected sleep that records it: no test waits for time to pass.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deliveryBackoffMs } from "../../emulator/deliveryRetry";
import { SIMULATE_EVENT_PATH } from "../../emulator/simulateEvent";
import { BUILDER, http, useEmulator } from "../support/emulatorHarness";
import { useRecordingReceiver } from "../support/recordingReceiver";

/** `/flaky-N` fails its first N messages with 503; `/down` always fails; anything else answers 204. */
const receiver = useRecordingReceiver((path, seen) => {
  const failures = /^\/flaky-(\d+)$/.exec(path);
  return path === "/down" || (failures !== null && seen <= Number(failures[1])) ? 503 : 204;
});
const received = receiver.received;
const slept: number[] = [];

const vendor = useEmulator({
  dialect: "vendor-docs",
  deliveryTimeoutMs: 2000,
  deliverySleep: async (ms) => {
    slept.push(ms);
  },
});
const spec = useEmulator({ deliverySleep: async (ms) => void slept.push(ms) });

beforeEach(() => {
  slept.length = 0;
});

async function subscribeTo(on: typeof vendor, path: string): Promise<{ GUID: string; Signature: string }> {
  const result = await on.config("SubscribeToWebhook", {
    body: { Webhook: 3, FilterObjectType: 2, SubscriberURL: `${receiver.url}${path}` },
  });
  expect(result.status).toBe(200);
  return on === vendor ? result.json[0] : result.json.Result;
}

describe("vendor-docs delivery retries", () => {
  it("retries a failed message with backoff until it is accepted: the receiver sees the same message twice", async () => {
    await subscribeTo(vendor, "/flaky-1");
    const result = await vendor.admin("POST", "/events", { Webhook: 3 });
    expect(result.json.deliveries).toEqual([expect.objectContaining({ status: 204, error: null, attempts: 2 })]);
    expect(received).toHaveLength(2);
    expect(received[1]!.text).toBe(received[0]!.text);
    expect(received[1]!.headers["x-service-signature"]).toBe(received[0]!.headers["x-service-signature"]);
    expect(slept).toEqual([1000]);
  });

  it("gives up after 3 retries (4 attempts), waiting 1 s, 2 s and 4 s", async () => {
    await subscribeTo(vendor, "/down");
    const result = await vendor.admin("POST", "/events", { Webhook: 3 });
    expect(result.json.deliveries).toEqual([expect.objectContaining({ status: 503, attempts: 4 })]);
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => r.text)).size).toBe(1);
    expect(slept).toEqual([1000, 2000, 4000]);
    expect([1, 2, 3].map(deliveryBackoffMs)).toEqual(slept);
  });

  it("does not retry a message the emulator refuses to send (not loopback)", async () => {
    const result = await vendor.config("SubscribeToWebhook", {
      body: { Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://hooks.example.com/x" },
    });
    expect(result.status).toBe(200);
    const deliveries = (await vendor.admin("POST", "/events", { Webhook: 3 })).json.deliveries;
    expect(deliveries).toEqual([expect.objectContaining({ status: null, attempts: 1 })]);
    expect(slept).toEqual([]);
  });

  it("the spec dialect delivers once", async () => {
    await subscribeTo(spec, "/down");
    const deliveries = (await spec.admin("POST", "/events", { Webhook: 3 })).json.deliveries;
    expect(deliveries).toEqual([expect.objectContaining({ status: 503, attempts: 1 })]);
    expect(received).toHaveLength(1);
    expect(slept).toEqual([]);
  });
});

describe("Webhook Test – Simulate Event", () => {
  const simulate = (on: typeof vendor, guid: string, auth = BUILDER) =>
    http(`${on.url}${SIMULATE_EVENT_PATH}?webHookSubscriptionGUID=${guid}&api-version=3`, {
      method: "POST",
      headers: { authorization: auth },
    });

  it("sends one test message to that subscription only, signed, with retries", async () => {
    const target = await subscribeTo(vendor, "/flaky-1");
    await subscribeTo(vendor, "/other");
    const result = await simulate(vendor, target.GUID);
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ SubscriptionGUID: target.GUID, status: 204, attempts: 2 });
    expect(received.map((r) => r.path)).toEqual(["/flaky-1", "/flaky-1"]);
    expect(received[0]!.headers["x-service-signature"]).toBe(target.Signature);
    expect(received[0]!.body).toMatchObject({ Webhook: 3, SubscriptionGUID: target.GUID });
  });

  it("refuses another account's subscription and an unknown one like Get (400), and a reader (403)", async () => {
    const target = await subscribeTo(vendor, "/ok");
    expect((await simulate(vendor, target.GUID, "Bearer dev-builder-2")).status).toBe(400);
    expect((await simulate(vendor, "cccccccc-0000-4000-8000-00000000000c")).status).toBe(400);
    expect((await simulate(vendor, target.GUID, "Bearer dev-reader")).status).toBe(403);
    expect((await simulate(vendor, "not-a-guid")).status).toBe(400);
    expect(received).toEqual([]);
    expect((await vendor.admin("GET", "/stats")).json.requests.SimulateEvent).toBe(4);
  });

  it("does not exist in the spec dialect", async () => {
    const target = await subscribeTo(spec, "/ok");
    expect((await simulate(spec, target.GUID)).status).toBe(404);
  });
});

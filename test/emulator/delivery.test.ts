/**
 * Event delivery (spec, Events; product.md, admin events): which subscriptions an event reaches,
 * the signature and custom headers, the body, and the loopback-only safety rule.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { EmulatorHarness, objectScopedBody, typeScopedBody, useEmulator } from "../support/emulatorHarness";
import { useRecordingReceiver } from "../support/recordingReceiver";

const OBJECT_A = "aaaaaaaa-0000-4000-8000-00000000000a";
const OBJECT_B = "bbbbbbbb-0000-4000-8000-00000000000b";

/** A subscriber on loopback that records every message; `/fail` answers 500, `/hang` never answers. */
const receiver = useRecordingReceiver((path) => (path === "/hang" ? null : path === "/fail" ? 500 : 204));
const received = receiver.received;

const emulator = useEmulator({ deliveryTimeoutMs: 300 });

async function fire(event: unknown) {
  return emulator.admin("POST", "/events", event);
}

describe("matching", () => {
  it("object-scoped events reach the subscriptions of that Webhook filtered on that object, case-insensitively", async () => {
    const a = await emulator.subscribe(
      objectScopedBody(0, OBJECT_A, {
        SubscriberURL: `${receiver.url}/a`,
        CustomHeader: "X Api Key",
        CustomHeaderValue: "k1",
      }),
    );
    await emulator.subscribe(objectScopedBody(0, OBJECT_B, { SubscriberURL: `${receiver.url}/b` }));
    await emulator.subscribe(objectScopedBody(1, OBJECT_A, { SubscriberURL: `${receiver.url}/other-event` }));
    const result = await fire({ Webhook: 0, ObjectGUID: OBJECT_A.toUpperCase() });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({
      deliveries: [
        { SubscriptionGUID: a.GUID, SubscriberURL: `${receiver.url}/a`, status: 204, error: null, attempts: 1 },
      ],
    });
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.method).toBe("POST");
    expect(message?.path).toBe("/a");
    expect(message?.headers["content-type"]).toBe("application/json");
    expect(message?.headers["x-service-signature"]).toBe(a.Signature);
    expect(message?.headers["x-api-key"]).toBe("k1");
    expect(message?.body).toEqual({
      Webhook: 0,
      WebhookName: "PacketCreated",
      ObjectGUID: OBJECT_A,
      SubscriptionGUID: a.GUID,
      EventGUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      OccurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it("type-scoped events reach every subscription of that Webhook, with one EventGUID", async () => {
    const first = await emulator.subscribe(typeScopedBody({ SubscriberURL: `${receiver.url}/one` }));
    const second = await emulator.subscribe(
      typeScopedBody({ SubscriberURL: `http://localhost:${new URL(receiver.url).port}/two` }),
    );
    await emulator.subscribe(typeScopedBody({ Webhook: 5, SubscriberURL: `${receiver.url}/five` }));
    const result = await fire({ Webhook: 3 });
    expect(
      result.json.deliveries.map((d: { SubscriptionGUID: string; status: number }) => [d.SubscriptionGUID, d.status]),
    ).toEqual([
      [first.GUID, 204],
      [second.GUID, 204],
    ]);
    expect(received.map((r) => r.path).sort()).toEqual(["/one", "/two"]);
    expect(received[0]?.body.EventGUID).toBe(received[1]?.body.EventGUID);
    expect(received.every((r) => r.body.ObjectGUID === null && r.body.WebhookName === "BusinessObjectCreated")).toBe(
      true,
    );
    // No custom header configured: none sent besides the fixed ones.
    expect(Object.keys(received[0]?.headers ?? {}).filter((h) => h.startsWith("x-"))).toEqual(["x-service-signature"]);
  });

  it("answers an empty list when nothing matches", async () => {
    await emulator.subscribe(objectScopedBody(2, OBJECT_A, { SubscriberURL: `${receiver.url}/a` }));
    expect((await fire({ Webhook: 2, ObjectGUID: OBJECT_B })).json).toEqual({ deliveries: [] });
    expect(received).toEqual([]);
  });
});

describe("results", () => {
  it("reports the subscriber's status, a timeout, and a refused connection", async () => {
    await emulator.subscribe(typeScopedBody({ SubscriberURL: `${receiver.url}/fail` }));
    await emulator.subscribe(typeScopedBody({ SubscriberURL: `${receiver.url}/hang` }));
    // A port from the ephemeral range that nothing listens on: briefly bind it, then free it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await emulator.subscribe(typeScopedBody({ SubscriberURL: `http://127.0.0.1:${closedPort}/` }));
    const deliveries = (await fire({ Webhook: 3 })).json.deliveries;
    expect(deliveries.map((d: { status: number | null }) => d.status)).toEqual([500, null, null]);
    expect(deliveries[0].error).toBeNull();
    expect(deliveries[1].error).toBe("timed out after 300 ms");
    expect(deliveries[2].error).toEqual(expect.any(String));
  });

  it("does not deliver to a non-loopback SubscriberURL, and says so", async () => {
    const remote = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/x" }));
    const mapped = await emulator.subscribe(typeScopedBody({ SubscriberURL: "http://[::ffff:7f00:1]:9/x" }));
    const deliveries = (await fire({ Webhook: 3 })).json.deliveries;
    expect(deliveries).toEqual([
      {
        SubscriptionGUID: remote.GUID,
        SubscriberURL: "https://hooks.example.com/x",
        status: null,
        error: "not delivered: the emulator only delivers to loopback addresses",
        attempts: 1,
      },
      {
        SubscriptionGUID: mapped.GUID,
        SubscriberURL: "http://[::ffff:7f00:1]:9/x",
        status: null,
        error: "not delivered: the emulator only delivers to loopback addresses",
        attempts: 1,
      },
    ]);
  });

  it("refuses malformed events with 400", async () => {
    for (const event of [
      { Webhook: 0 },
      { Webhook: "0", ObjectGUID: OBJECT_A },
      { Webhook: 9 },
      { Webhook: 1, ObjectGUID: "x" },
      { Webhook: 3, Extra: 1 },
    ]) {
      const result = await fire(event);
      expect(result.status).toBe(400);
      expect(result.json.Error).toEqual(expect.any(String));
    }
    expect((await fire({ Webhook: 0 })).json.Error).toContain("ObjectGUID is required");
  });
});

describe("product name", () => {
  it("uses x-<product>-signature", async () => {
    const acme = await EmulatorHarness.start({ product: "acme" });
    try {
      const saved = await acme.subscribe(typeScopedBody({ SubscriberURL: `${receiver.url}/acme` }));
      await acme.admin("POST", "/events", { Webhook: 3 });
      expect(received).toHaveLength(1);
      expect(received[0]?.headers["x-acme-signature"]).toBe(saved.Signature);
      expect(received[0]?.headers["x-service-signature"]).toBeUndefined();
    } finally {
      await acme.close();
    }
  });
});

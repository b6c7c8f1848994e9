/**
 * API versions (spec, Versioning) and the legacy 2024.1 API: every configuration version serves
 * all five operations alike; the legacy API only Subscribe and Unsubscribe; `legacyOnly` hides
 * the configuration API.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../provider/wire";
import { useEmulator, objectScopedBody, typeScopedBody } from "../support/emulatorHarness";

const OBJECT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

const emulator = useEmulator();

describe("configuration API versions", () => {
  it.each([["1"], ["2"], ["3"], ["4-preview"], [null]])(
    "api-version %s serves all five operations",
    async (version) => {
      const subscribed = await emulator.config("SubscribeToWebhook", { version, body: objectScopedBody(0, OBJECT) });
      expect(subscribed.status).toBe(200);
      const guid: string = subscribed.json.Result.GUID;
      const all = await emulator.config("GetAllWebhookSubscriptions", { version });
      expect(all.json.map((s: { GUID: string }) => s.GUID)).toEqual([guid]);
      const one = await emulator.config("GetWebhookSubscription", {
        version,
        query: { webhookSubscriptionGUID: guid },
      });
      expect(one.json.GUID).toBe(guid);
      const updated = await emulator.config("UpdateWebhookSubscription", {
        version,
        body: { GUID: guid, ...typeScopedBody() },
      });
      expect(updated.json.Result).toMatchObject({ GUID: guid, Webhook: 3, FilterObjectGUID: null });
      const removed = await emulator.config("Unsubscribe", { version, query: { webHookSubscriptionGUID: guid } });
      expect(removed.json).toEqual({ Result: true, Messages: [] });
    },
  );

  it("behaves the same in every version: a rule failure gives the same messages", async () => {
    const ids = [];
    for (const version of ["1", "2", "3", "4-preview"]) {
      const result = await emulator.config("SubscribeToWebhook", {
        version,
        body: typeScopedBody({ SubscriberURL: "x" }),
      });
      ids.push(result.json.Messages.map((m: { MessageID: number }) => m.MessageID));
    }
    expect(ids).toEqual([[1001], [1001], [1001], [1001]]);
  });

  it.each([["5"], ["3.0"], ["4"], ["2024.1"], [""], ["latest"]])(
    "answers an unknown api-version %j with 400 and an Error body",
    async (version) => {
      for (const operation of OPERATIONS) {
        const result = await emulator.config(operation, { version, body: typeScopedBody() });
        expect(result.status).toBe(400);
        expect(result.json).toEqual({
          Error: `Unsupported api-version "${version}": use one of 1, 2, 3, 4-preview (or 2024.1 on /legacy)`,
        });
      }
      expect(await emulator.all()).toEqual([]);
    },
  );

  it("checks the version before the body and the auth", async () => {
    const result = await emulator.config("SubscribeToWebhook", { version: "9", raw: "{", auth: null });
    expect(result.status).toBe(400);
    expect(result.json.Error).toMatch(/^Unsupported api-version "9"/);
  });
});

describe("legacy 2024.1 API", () => {
  it.each([["2024.1"], [null]])("subscribes and unsubscribes with api-version %s", async (version) => {
    const subscribed = await emulator.legacy("SubscribeToWebhook", {
      version,
      body: typeScopedBody({ CustomHeader: "A B" }),
    });
    expect(subscribed.status).toBe(200);
    expect(subscribed.json.Messages).toEqual([]);
    expect(subscribed.json.Result).toMatchObject({
      Webhook: 3,
      CustomHeader: "A-B",
      CustomHeaderValue: null,
      FilterObjectGUID: null,
    });
    // Same instance, same subscriptions, whichever API created them.
    expect((await emulator.all()).map((s) => s.GUID)).toEqual([subscribed.json.Result.GUID]);
    const removed = await emulator.legacy("Unsubscribe", {
      version,
      query: { webHookSubscriptionGUID: subscribed.json.Result.GUID },
    });
    expect(removed.json).toEqual({ Result: true, Messages: [] });
    expect(await emulator.all()).toEqual([]);
  });

  it("applies the same body and rule checks", async () => {
    const unreadable = await emulator.legacy("SubscribeToWebhook", { body: typeScopedBody({ Webhook: "3" }) });
    expect(unreadable.status).toBe(400);
    expect(unreadable.json.Messages).toBeUndefined();
    const broken = await emulator.legacy("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: "x" }) });
    expect(broken.status).toBe(400);
    expect(broken.json.Messages[0].MessageID).toBe(1001);
    const missing = await emulator.legacy("Unsubscribe", { query: { webHookSubscriptionGUID: OBJECT } });
    expect(missing.status).toBe(404);
  });

  it("has no Get, GetAll or Update (404)", async () => {
    for (const operation of [
      "GetAllWebhookSubscriptions",
      "GetWebhookSubscription",
      "UpdateWebhookSubscription",
    ] as const) {
      const result = await emulator.legacy(operation, { body: typeScopedBody() });
      expect(result.status).toBe(404);
    }
  });

  it("refuses configuration versions on /legacy", async () => {
    const result = await emulator.legacy("SubscribeToWebhook", { version: "3", body: typeScopedBody() });
    expect(result.status).toBe(400);
    expect(result.json).toEqual({
      Error: 'Unsupported api-version "3": use one of 1, 2, 3, 4-preview (or 2024.1 on /legacy)',
    });
  });
});

describe("legacyOnly", () => {
  const legacyOnly = useEmulator({ legacyOnly: true });

  it("answers 404 on every configuration-API path and serves the legacy API", async () => {
    for (const operation of OPERATIONS) {
      const result = await legacyOnly.config(operation, { body: typeScopedBody() });
      expect(result.status).toBe(404);
    }
    const subscribed = await legacyOnly.legacy("SubscribeToWebhook", { body: typeScopedBody() });
    expect(subscribed.status).toBe(200);
    const removed = await legacyOnly.legacy("Unsubscribe", {
      query: { webHookSubscriptionGUID: subscribed.json.Result.GUID },
    });
    expect(removed.status).toBe(200);
  });
});

/**
 * The five configuration-API operations against the spec: shapes, normalisation, identity,
 * not-found answers and permanence of Unsubscribe.
 */
import { describe, expect, it } from "vitest";
import { useEmulator, objectScopedBody, typeScopedBody } from "../support/emulatorHarness";

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OBJECT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const UNKNOWN = "0a0a0a0a-0000-4000-8000-000000000001";

const emulator = useEmulator();

describe("SubscribeToWebhook", () => {
  it("returns the saved subscription in an envelope, with generated lower-case GUID and Signature", async () => {
    const result = await emulator.config("SubscribeToWebhook", { body: objectScopedBody(0, OBJECT) });
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toMatch(/^application\/json/);
    expect(result.json.Messages).toEqual([]);
    const saved = result.json.Result;
    expect(saved.GUID).toMatch(GUID_PATTERN);
    expect(saved.Signature).toMatch(GUID_PATTERN);
    expect(saved.Signature).not.toBe(saved.GUID);
    expect(saved).toEqual({
      GUID: saved.GUID,
      Webhook: 0,
      FilterObjectGUID: OBJECT,
      FilterObjectType: 7,
      SubscriberURL: "https://hooks.example.com/obj",
      Signature: saved.Signature,
      CustomHeader: "",
      CustomHeaderValue: null,
    });
  });

  it("saves CustomHeader with spaces as hyphens, keeps CustomHeaderValue, and null filter for type-scoped events", async () => {
    const saved = await emulator.subscribe(typeScopedBody({ CustomHeader: "X Api Key", CustomHeaderValue: "s3cret" }));
    expect(saved.CustomHeader).toBe("X-Api-Key");
    expect(saved.CustomHeaderValue).toBe("s3cret");
    expect(saved.FilterObjectGUID).toBeNull();
  });

  it("treats explicit nulls like absent optional fields", async () => {
    const saved = await emulator.subscribe(
      typeScopedBody({ FilterObjectGUID: null, CustomHeader: null, CustomHeaderValue: null }),
    );
    expect(saved).toMatchObject({ FilterObjectGUID: null, CustomHeader: "", CustomHeaderValue: null });
  });

  it("treats the all-zero FilterObjectGUID as no filter on a type-scoped event", async () => {
    const saved = await emulator.subscribe(
      typeScopedBody({ FilterObjectGUID: "00000000-0000-0000-0000-000000000000" }),
    );
    expect(saved.FilterObjectGUID).toBeNull();
  });

  it("stores FilterObjectGUID lower-case", async () => {
    const saved = await emulator.subscribe(objectScopedBody(4, OBJECT.toUpperCase()));
    expect(saved.FilterObjectGUID).toBe(OBJECT);
  });

  it("gives a new GUID and Signature when re-subscribing after Unsubscribe", async () => {
    const first = await emulator.subscribe(typeScopedBody());
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: first.GUID } });
    const second = await emulator.subscribe(typeScopedBody());
    expect(second.GUID).not.toBe(first.GUID);
    expect(second.Signature).not.toBe(first.Signature);
  });
});

describe("GetWebhookSubscription and GetAllWebhookSubscriptions", () => {
  it("Get returns the bare subscription object (no envelope), GUID case-insensitive", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    const result = await emulator.config("GetWebhookSubscription", {
      query: { webhookSubscriptionGUID: saved.GUID.toUpperCase() },
    });
    expect(result.status).toBe(200);
    expect(result.json).toEqual(saved);
  });

  it("Get of an unknown GUID is 404 with an Error body", async () => {
    const result = await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: UNKNOWN } });
    expect(result.status).toBe(404);
    expect(result.json).toEqual({ Error: `No webhook subscription has GUID ${UNKNOWN}.` });
  });

  it("GetAll returns every subscription in insertion order, as a bare array", async () => {
    expect(await emulator.all()).toEqual([]);
    const a = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://a.example/" }));
    const b = await emulator.subscribe(objectScopedBody(2, OBJECT));
    const c = await emulator.subscribe(typeScopedBody({ Webhook: 5 }));
    expect((await emulator.all()).map((s) => s.GUID)).toEqual([a.GUID, b.GUID, c.GUID]);
  });
});

describe("UpdateWebhookSubscription", () => {
  it("replaces every field but GUID and Signature, in place", async () => {
    const first = await emulator.subscribe(typeScopedBody({ CustomHeader: "X Old", CustomHeaderValue: "old" }));
    const second = await emulator.subscribe(typeScopedBody());
    const result = await emulator.config("UpdateWebhookSubscription", {
      body: {
        GUID: first.GUID.toUpperCase(),
        ...objectScopedBody(1, OBJECT, { SubscriberURL: "http://new.example/hook" }),
      },
    });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({
      Result: {
        GUID: first.GUID,
        Webhook: 1,
        FilterObjectGUID: OBJECT,
        FilterObjectType: 7,
        SubscriberURL: "http://new.example/hook",
        Signature: first.Signature,
        CustomHeader: "",
        CustomHeaderValue: null,
      },
      Messages: [],
    });
    const all = await emulator.all();
    expect(all.map((s) => s.GUID)).toEqual([first.GUID, second.GUID]);
    expect(all[0]).toEqual(result.json.Result);
  });

  it("answers 404 for an unknown GUID and saves nothing", async () => {
    const result = await emulator.config("UpdateWebhookSubscription", { body: { GUID: UNKNOWN, ...typeScopedBody() } });
    expect(result.status).toBe(404);
    expect(result.json).toEqual({ Error: `No webhook subscription has GUID ${UNKNOWN}.` });
    expect(await emulator.all()).toEqual([]);
  });
});

describe("Unsubscribe", () => {
  it("answers {Result: true, Messages: []} and deletes permanently", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    const result = await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: saved.GUID } });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ Result: true, Messages: [] });
    const get = await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: saved.GUID } });
    expect(get.status).toBe(404);
    expect(await emulator.all()).toEqual([]);
    const again = await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: saved.GUID } });
    expect(again.status).toBe(404);
  });

  it("answers 404 for an unknown GUID", async () => {
    const result = await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: UNKNOWN } });
    expect(result.status).toBe(404);
    expect(result.json.Error).toContain(UNKNOWN);
    expect(result.json.Messages).toBeUndefined();
  });

  it("ignores a body: the query parameter is the only input", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    const result = await emulator.config("Unsubscribe", {
      query: { webHookSubscriptionGUID: saved.GUID },
      body: { anything: 1 },
    });
    expect(result.status).toBe(200);
  });
});

describe("routing", () => {
  it("answers 404 for unknown operations, wrong methods and unknown paths", async () => {
    const unknownOperation = await emulator.config("GetThings" as never);
    expect(unknownOperation.status).toBe(404);
    expect(unknownOperation.json).toEqual({
      Error: "No such resource: POST /configuration/WebHookSubscription/GetThings",
    });
    const wrongMethod = await fetch(`${emulator.url}/configuration/WebHookSubscription/SubscribeToWebhook`, {
      headers: { authorization: "Bearer dev-builder" },
    });
    expect(wrongMethod.status).toBe(404);
    const elsewhere = await fetch(`${emulator.url}/nothing/here`);
    expect(elsewhere.status).toBe(404);
  });

  it("answers malformed URLs and oversized bodies with 4xx, never 5xx", async () => {
    const badUrl = await fetch(`${emulator.url}/configuration/WebHookSubscription/%E0%A4%A`);
    expect(badUrl.status).toBeGreaterThanOrEqual(400);
    expect(badUrl.status).toBeLessThan(500);
    const huge = await emulator.config("SubscribeToWebhook", {
      raw: JSON.stringify(typeScopedBody({ CustomHeaderValue: "x".repeat(2 * 1024 * 1024) })),
    });
    expect(huge.status).toBe(413);
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(200);
  });
});

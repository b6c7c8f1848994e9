/**
 * PacketUpdated subscriptions on a Closed work item (spec, Subscribe rules 2 and 3): the
 * configuration API refuses with a plain-text 400; the legacy API claims success but saves nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { objectScopedBody, useEmulator, typeScopedBody } from "../support/emulatorHarness";

const CLOSED = "c105ed00-0000-4000-8000-0000000000aa";
const OPEN = "0be70000-0000-4000-8000-0000000000bb";
const CLOSED_TEXT = "Cannot create subscription for a closed packet.";

const emulator = useEmulator();
beforeEach(async () => {
  // After the reset of useEmulator (hooks run in order). Declared upper-case: work item GUIDs compare case-insensitively.
  const declared = await emulator.admin("PUT", `/work-items/${CLOSED.toUpperCase()}`, { Closed: true });
  expect(declared.json).toEqual({ GUID: CLOSED, Closed: true });
});

describe("configuration API", () => {
  it.each([["1"], ["2"], ["3"], ["4-preview"], [null]])(
    "Subscribe answers 400 text/plain in api-version %s",
    async (version) => {
      const result = await emulator.config("SubscribeToWebhook", { version, body: objectScopedBody(1, CLOSED) });
      expect(result.status).toBe(400);
      expect(result.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(result.text).toBe(CLOSED_TEXT);
      expect(await emulator.all()).toEqual([]);
    },
  );

  it("Update onto a closed packet answers the same and keeps the subscription unchanged", async () => {
    const saved = await emulator.subscribe(objectScopedBody(1, OPEN));
    const result = await emulator.config("UpdateWebhookSubscription", {
      body: { GUID: saved.GUID, ...objectScopedBody(1, CLOSED) },
    });
    expect(result.status).toBe(400);
    expect(result.text).toBe(CLOSED_TEXT);
    expect(await emulator.all()).toEqual([saved]);
  });

  it("only concerns PacketUpdated: other events on the closed packet are accepted", async () => {
    for (const webhook of [0, 2, 4]) {
      const result = await emulator.config("SubscribeToWebhook", { body: objectScopedBody(webhook, CLOSED) });
      expect(result.status).toBe(200);
    }
  });

  it("accepts PacketUpdated on an open, unknown or re-opened work item", async () => {
    expect((await emulator.config("SubscribeToWebhook", { body: objectScopedBody(1, OPEN) })).status).toBe(200);
    await emulator.admin("PUT", `/work-items/${OPEN}`, { Closed: false });
    expect((await emulator.config("SubscribeToWebhook", { body: objectScopedBody(1, OPEN) })).status).toBe(200);
    await emulator.admin("PUT", `/work-items/${CLOSED}`, { Closed: false });
    expect((await emulator.config("SubscribeToWebhook", { body: objectScopedBody(1, CLOSED) })).status).toBe(200);
  });

  it("checks validation rules before the closed packet", async () => {
    const result = await emulator.config("SubscribeToWebhook", {
      body: objectScopedBody(1, CLOSED, { SubscriberURL: "x" }),
    });
    expect(result.status).toBe(400);
    expect(result.json.Messages[0].MessageID).toBe(1001);
  });
});

describe("legacy 2024.1 API", () => {
  it("answers 200 with a subscription and no messages, but saves nothing", async () => {
    const result = await emulator.legacy("SubscribeToWebhook", { body: objectScopedBody(1, CLOSED) });
    expect(result.status).toBe(200);
    expect(result.json.Messages).toEqual([]);
    expect(result.json.Result).toMatchObject({ Webhook: 1, FilterObjectGUID: CLOSED });
    expect(result.json.Result.GUID).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.json.Result.Signature).toMatch(/^[0-9a-f-]{36}$/);
    expect(await emulator.all()).toEqual([]);
    const get = await emulator.config("GetWebhookSubscription", {
      query: { webhookSubscriptionGUID: result.json.Result.GUID },
    });
    expect(get.status).toBe(404);
  });
});

describe("admin: work items", () => {
  it("refuses a malformed GUID or body with 400", async () => {
    const badGuid = await emulator.admin("PUT", "/work-items/nope", { Closed: true });
    expect(badGuid.status).toBe(400);
    expect(badGuid.json.Error).toContain("Work item GUID in the path");
    for (const body of [{ Closed: "yes" }, { closed: true }, {}, null]) {
      const result = await emulator.admin("PUT", `/work-items/${OPEN}`, body);
      expect(result.status).toBe(400);
    }
    expect((await emulator.config("SubscribeToWebhook", { body: typeScopedBody() })).status).toBe(200);
  });
});

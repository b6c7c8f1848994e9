/**
 * The `vendor-docs` dialect (issue 15): requests with enumeration names, answers in the shapes the
 * vendor's documentation shows, and per-account visibility with two Builder tokens. The default
 * dialect is checked alongside, so a change that leaks into `spec` fails here too.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator, EmulatorOptionError } from "../../emulator";
import { parseEmulatorArgs as parseCliArgs } from "../../cli/emulator";
import { BUILDER, EmulatorHarness, useEmulator } from "../support/emulatorHarness";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const WORK_ITEM = "aaaaaaaa-0000-4000-8000-00000000000a";
const EMPTY = "00000000-0000-0000-0000-000000000000";
const SECOND_BUILDER = "Bearer dev-builder-2";
const UNKNOWN = "cccccccc-0000-4000-8000-00000000000c";

const vendor = useEmulator({ dialect: "vendor-docs" });
const spec = useEmulator();

const typeScoped = {
  Webhook: "BusinessObjectUpdated",
  FilterObjectType: "None",
  SubscriberURL: "https://h.example.com/t",
};

async function subscribe(body: Record<string, unknown>, auth = BUILDER) {
  const result = await vendor.config("SubscribeToWebhook", { body, auth });
  expect(result.status).toBe(200);
  return result.json[0] as Record<string, unknown> & { GUID: string; Signature: string };
}

describe("vendor-docs: requests with enumeration names", () => {
  it("accepts names as the documentation's examples send them, and integers", async () => {
    const named = await subscribe({
      Webhook: "PacketCreated",
      FilterObjectType: "Company",
      FilterObjectGUID: WORK_ITEM,
      SubscriberURL: "https://h.example.com/a",
    });
    expect(named).toMatchObject({ Webhook: "PacketCreated", FilterObjectType: "Company", FilterObjectGUID: WORK_ITEM });
    const numbered = await subscribe({ Webhook: 3, FilterObjectType: 215, SubscriberURL: "https://h.example.com/b" });
    expect(numbered).toMatchObject({ Webhook: "BusinessObjectCreated", FilterObjectType: "Contract" });
    const aliased = await subscribe(typeScoped);
    expect(aliased).toMatchObject({ Webhook: "BusinessObjectUpdated", FilterObjectType: "None" });
  });

  it("refuses an unknown name with 400 without Messages, naming the field and the value", async () => {
    const result = await vendor.config("SubscribeToWebhook", { body: { ...typeScoped, Webhook: "PacketDeleted" } });
    expect(result.status).toBe(400);
    expect(result.json.Messages).toBeUndefined();
    expect(result.json.Error).toContain('Webhook: "PacketDeleted" is a name');
  });

  it("the spec dialect still refuses names", async () => {
    const result = await spec.config("SubscribeToWebhook", { body: typeScoped });
    expect(result.status).toBe(400);
    expect(result.json.Error).toContain("enumerations are sent as integers");
  });
});

describe("vendor-docs: documented answers", () => {
  it("Subscribe and Update answer a one-element array without envelope, names and the all-zero GUID", async () => {
    const created = await vendor.config("SubscribeToWebhook", { body: typeScoped });
    expect(created.json).toEqual([
      {
        GUID: expect.any(String),
        Webhook: "BusinessObjectUpdated",
        FilterObjectGUID: EMPTY,
        FilterObjectType: "None",
        SubscriberURL: "https://h.example.com/t",
        Signature: expect.any(String),
        CustomHeader: "",
        CustomHeaderValue: null,
      },
    ]);
    const guid = created.json[0].GUID as string;
    const updated = await vendor.config("UpdateWebhookSubscription", {
      body: { ...typeScoped, GUID: guid, FilterObjectType: 217 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual([expect.objectContaining({ GUID: guid, FilterObjectType: "Service" })]);
  });

  it("Get answers a one-element array, GetAll an array, both with names; an unnamed type stays an integer", async () => {
    const sub = await subscribe({ ...typeScoped, FilterObjectType: 7 });
    const one = await vendor.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: sub.GUID } });
    expect(one.json).toEqual([
      expect.objectContaining({ GUID: sub.GUID, Webhook: "BusinessObjectUpdated", FilterObjectType: 7 }),
    ]);
    expect((await vendor.all()).map((s) => s.GUID)).toEqual([sub.GUID]);
  });

  it("Unsubscribe answers 200 with an empty body", async () => {
    const sub = await subscribe(typeScoped);
    const result = await vendor.config("Unsubscribe", { query: { webHookSubscriptionGUID: sub.GUID } });
    expect([result.status, result.text]).toEqual([200, ""]);
    expect(await vendor.all()).toEqual([]);
  });

  it("Get of a GUID that does not exist: 400 The request is invalid, without Messages", async () => {
    const result = await vendor.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: UNKNOWN } });
    expect(result.status).toBe(400);
    expect(result.json).toEqual({ Error: "The request is invalid." });
  });

  it("a rule failure keeps the spec's envelope", async () => {
    const result = await vendor.config("SubscribeToWebhook", { body: { ...typeScoped, SubscriberURL: "ftp://x" } });
    expect(result.status).toBe(400);
    expect(result.json).toMatchObject({ Result: null, Messages: [expect.objectContaining({ MessageID: 1001 })] });
  });

  it("the spec dialect still answers with envelopes, integers and 404", async () => {
    const created = await spec.config("SubscribeToWebhook", {
      body: { Webhook: 5, FilterObjectType: 0, SubscriberURL: "https://h.example.com/t" },
    });
    expect(created.json).toMatchObject({
      Result: { Webhook: 5, FilterObjectType: 0, FilterObjectGUID: null },
      Messages: [],
    });
    const gone = await spec.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: UNKNOWN } });
    expect(gone.status).toBe(404);
    const removed = await spec.config("Unsubscribe", { query: { webHookSubscriptionGUID: created.json.Result.GUID } });
    expect(removed.json).toEqual({ Result: true, Messages: [] });
  });
});

describe("vendor-docs: subscriptions are per account", () => {
  it("two Builder tokens each see, read, change and delete only their own", async () => {
    const mine = await subscribe(typeScoped);
    const theirs = await subscribe({ ...typeScoped, SubscriberURL: "https://h.example.com/theirs" }, SECOND_BUILDER);
    const guids = async (auth: string) =>
      ((await vendor.config("GetAllWebhookSubscriptions", { auth })).json as Array<{ GUID: string }>).map(
        (s) => s.GUID,
      );
    expect(await guids(BUILDER)).toEqual([mine.GUID]);
    expect(await guids(SECOND_BUILDER)).toEqual([theirs.GUID]);

    const peek = await vendor.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: theirs.GUID } });
    expect(peek.status).toBe(400);
    const change = await vendor.config("UpdateWebhookSubscription", { body: { ...typeScoped, GUID: theirs.GUID } });
    expect(change.status).toBe(404);
    const remove = await vendor.config("Unsubscribe", { query: { webHookSubscriptionGUID: theirs.GUID } });
    expect(remove.status).toBe(404);
    expect(await guids(SECOND_BUILDER)).toEqual([theirs.GUID]);

    const own = await vendor.config("Unsubscribe", {
      query: { webHookSubscriptionGUID: theirs.GUID },
      auth: SECOND_BUILDER,
    });
    expect(own.status).toBe(200);
  });

  it("the spec dialect shows every subscription to every Builder", async () => {
    const created = await spec.config("SubscribeToWebhook", {
      body: { Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://h.example.com/t" },
    });
    const seen = await spec.config("GetAllWebhookSubscriptions", { auth: SECOND_BUILDER });
    expect(seen.json.map((s: { GUID: string }) => s.GUID)).toEqual([created.json.Result.GUID]);
  });
});

describe("vendor-docs: owners survive a restart", () => {
  it("a subscription stays visible to its creator alone after the state file is reloaded", async () => {
    const statePath = join(tempDir("vendor-docs-"), "state.json");
    const first = await EmulatorHarness.start({ dialect: "vendor-docs", statePath });
    const created = await first.config("SubscribeToWebhook", { body: typeScoped, auth: SECOND_BUILDER });
    await first.close();
    const second = await EmulatorHarness.start({ dialect: "vendor-docs", statePath });
    try {
      expect((await second.config("GetAllWebhookSubscriptions")).json).toEqual([]);
      const theirs = await second.config("GetAllWebhookSubscriptions", { auth: SECOND_BUILDER });
      expect(theirs.json.map((s: { GUID: string }) => s.GUID)).toEqual([created.json[0].GUID]);
    } finally {
      await second.close();
    }
  });
});

describe("the dialect option and flag", () => {
  it("--dialect is parsed, and a bad value names the option and the allowed values", async () => {
    expect(parseCliArgs(["--dialect", "vendor-docs"])).toEqual({ dialect: "vendor-docs" });
    const error = await startEmulator({ dialect: "enate" as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorOptionError);
    expect((error as Error).message).toBe('dialect must be spec or vendor-docs, got "enate"');
  });
});

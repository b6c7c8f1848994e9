/**
 * readLive, the refresh read, over MockAgent: what the vendor's documented answers make of a
 * subscription that is not in the list (gone, possibly gone, unreadable, forbidden).
 */
import { afterEach, describe, expect, it } from "vitest";
import { UnauthorizedError, type WebhookSubscriptionClient } from "../../provider/client";
import { readLive } from "../../provider/core/readLive";
import { Instance } from "../../provider/core/session";
import { SUBSCRIPTION_GUID, mockInstance, wireSubscription } from "../client/mockInstance";

const OTHER = "22222222-3333-4444-8555-666666666666";
const clients: WebhookSubscriptionClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function instanceOn(mock: ReturnType<typeof mockInstance>): Instance {
  const client = mock.client();
  clients.push(client);
  return new Instance(client);
}

const operations = (mock: ReturnType<typeof mockInstance>) =>
  mock.requests.map((r) => r.path.split("?")[0]!.split("/").pop());

describe("readLive", () => {
  it("takes a listed subscription from the shared list, without a Get", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", {
      status: 200,
      json: [wireSubscription({ Webhook: "PacketCreated" as never })],
    });
    expect((await readLive(instanceOn(mock), SUBSCRIPTION_GUID))?.webhook).toBe(0);
    expect(operations(mock)).toEqual(["GetAllWebhookSubscriptions"]);
  });

  it("fails only the subscription whose list entry cannot be read, naming field and value", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", {
      status: 200,
      json: [wireSubscription({ Webhook: "PacketArchived" as never }), wireSubscription({ GUID: OTHER })],
    });
    const s = instanceOn(mock);
    await expect(readLive(s, SUBSCRIPTION_GUID)).rejects.toThrow(
      `subscription ${SUBSCRIPTION_GUID} cannot be read: Webhook "PacketArchived" is a name this package cannot map`,
    );
    expect((await readLive(s, OTHER))?.guid).toBe(OTHER);
    expect(operations(mock)).toEqual(["GetAllWebhookSubscriptions"]);
  });

  it("drops a subscription whose Get answers 400 once a fresh list confirms it is gone", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] }, { status: 200, json: [] });
    mock.on("GetWebhookSubscription", { status: 400, text: "The request is invalid." });
    expect(await readLive(instanceOn(mock), SUBSCRIPTION_GUID)).toBeUndefined();
    expect(operations(mock)).toEqual([
      "GetAllWebhookSubscriptions",
      "GetWebhookSubscription",
      "GetAllWebhookSubscriptions",
    ]);
  });

  it("keeps a subscription whose Get answers 400 when the fresh list still holds it", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] }, { status: 200, json: [wireSubscription()] });
    mock.on("GetWebhookSubscription", { status: 400, text: "The request is invalid." });
    expect((await readLive(instanceOn(mock), SUBSCRIPTION_GUID))?.guid).toBe(SUBSCRIPTION_GUID);
  });

  it("drops on an empty array from Get, without a second list", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] });
    mock.on("GetWebhookSubscription", { status: 200, json: [] });
    expect(await readLive(instanceOn(mock), SUBSCRIPTION_GUID)).toBeUndefined();
    expect(operations(mock)).toEqual(["GetAllWebhookSubscriptions", "GetWebhookSubscription"]);
  });

  it("never drops on 401: the error propagates and nothing is confirmed", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] });
    mock.on("GetWebhookSubscription", { status: 401, text: "" }, { status: 401, text: "" });
    await expect(readLive(instanceOn(mock), SUBSCRIPTION_GUID)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(operations(mock)).not.toContain("Unsubscribe");
    expect(operations(mock).filter((op) => op === "GetAllWebhookSubscriptions")).toHaveLength(1);
  });
});

/**
 * Every response shape the vendor's public documentation shows (issue 15's table), read by the
 * client over MockAgent; and requests still sent exactly as the spec says.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnreadableRequestError,
  ValidationFailedError,
  WebhookSubscriptionClient,
  mayMeanGone,
} from "../../provider/client";
import { EMPTY_GUID, Webhook, type SubscriptionSpec } from "../../provider/wire";
import { SUBSCRIPTION_GUID, WORK_ITEM_GUID, mockInstance, wireSubscription } from "./mockInstance";

const OTHER_GUID = "22222222-3333-4444-8555-666666666666";

/** The documentation's example subscription: enumeration names, filter unset as the all-zero GUID. */
function documented(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    GUID: SUBSCRIPTION_GUID.toUpperCase(),
    Webhook: "PacketCreated",
    FilterObjectGUID: EMPTY_GUID,
    FilterObjectType: "None",
    SubscriberURL: "https://hooks.example.com/orders",
    Signature: "9d1e8c7b-0000-4000-8000-000000000001",
    CustomHeader: "string",
    CustomHeaderValue: "string",
    ...overrides,
  };
}

const spec: SubscriptionSpec = {
  webhook: Webhook.PacketCreated,
  filterObjectType: 31,
  filterObjectGuid: WORK_ITEM_GUID,
  subscriberUrl: "https://hooks.example.com/orders",
};

const clients: WebhookSubscriptionClient[] = [];
function client(mock: ReturnType<typeof mockInstance>): WebhookSubscriptionClient {
  const created = mock.client();
  clients.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: Error) => err,
  );
}

describe("enumeration names in responses", () => {
  it("GetAll: names and integers, the all-zero filter as null", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", {
      status: 200,
      json: [documented(), documented({ GUID: OTHER_GUID, Webhook: 3, FilterObjectType: 31, FilterObjectGUID: null })],
    });
    const all = await client(mock).list();
    expect(all.map((s) => [s.webhook, s.filterObjectType, s.filterObjectGuid])).toEqual([
      [0, 0, null],
      [3, 31, null],
    ]);
  });

  it.each([
    ["PacketCreated", 0],
    ["PacketUpdated", 1],
    ["NewCommunication", 2],
    ["BusinessObjectCreated", 3],
    ["SpecificBusinessObjectUpdated", 4],
    ["BusinessObjectTypeUpdated", 5],
    ["BusinessObjectUpdated", 5], // the documentation's name for member 5
    ["packetcreated", 0], // .NET reads names case-insensitively
  ])("Get: Webhook %s → %i", async (name, id) => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: [documented({ Webhook: name })] });
    expect((await client(mock).get(SUBSCRIPTION_GUID)).webhook).toBe(id);
  });

  it.each([
    ["None", 0],
    ["Company", 31],
    ["Contract", 215],
    ["Service", 217],
    [31, 31],
    [215, 215],
    [217, 217],
  ])("Get: FilterObjectType %s → %i", async (value, id) => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: documented({ FilterObjectType: value }) });
    expect((await client(mock).get(SUBSCRIPTION_GUID)).filterObjectType).toBe(id);
  });

  it("Get: a name this package cannot map fails with the field and the value", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: [documented({ Webhook: "PacketDeleted" })] });
    const error = await failure(client(mock).get(SUBSCRIPTION_GUID));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain('Webhook: "PacketDeleted" is a name this package cannot map');
  });

  it("GetAll: one unmappable entry is reported on its own; the rest is returned", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", {
      status: 200,
      json: [documented(), documented({ GUID: OTHER_GUID, FilterObjectType: "Galaxy" }), { nonsense: true }],
    });
    const result = await client(mock).listWithProblems();
    expect(result.subscriptions.map((s) => s.guid)).toEqual([SUBSCRIPTION_GUID]);
    expect(result.problems).toEqual([
      {
        index: 1,
        guid: OTHER_GUID,
        field: "FilterObjectType",
        value: "Galaxy",
        message: expect.stringContaining(
          `subscription ${OTHER_GUID} cannot be read: FilterObjectType "Galaxy" is a name`,
        ),
      },
      expect.objectContaining({
        index: 2,
        guid: null,
        field: "GUID",
        message: expect.stringContaining("list entry #2"),
      }),
    ]);
  });

  it("a problem never shows a secret value", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [documented({ CustomHeaderValue: 42 })] });
    const [problem] = (await client(mock).listWithProblems()).problems;
    expect(problem).toMatchObject({ field: "CustomHeaderValue", value: "(a number)" });
    expect(problem!.message).not.toContain("42");
  });
});

describe("one subscription in every documented shape", () => {
  const shapes: Array<[string, (sub: unknown) => unknown]> = [
    ["an envelope", (sub) => ({ Result: sub, Messages: [] })],
    ["a bare object", (sub) => sub],
    ["a one-element array", (sub) => [sub]],
    ["an envelope holding a one-element array", (sub) => ({ Result: [sub], Messages: [] })],
  ];

  it.each(shapes)("Subscribe answered with %s", async (_name, shape) => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", { status: 200, json: shape(documented({ FilterObjectType: "Company" })) });
    expect(await client(mock).subscribe(spec)).toMatchObject({ guid: SUBSCRIPTION_GUID, filterObjectType: 31 });
  });

  it.each(shapes)("Update answered with %s", async (_name, shape) => {
    const mock = mockInstance();
    mock.on("UpdateWebhookSubscription", { status: 200, json: shape(wireSubscription({ Webhook: 2 })) });
    expect((await client(mock).update(SUBSCRIPTION_GUID, spec)).webhook).toBe(2);
  });

  it.each(shapes)("Get answered with %s", async (_name, shape) => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: shape(documented()) });
    expect((await client(mock).get(SUBSCRIPTION_GUID)).guid).toBe(SUBSCRIPTION_GUID);
  });

  it("Get answered with an empty array → NotFoundError", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: [] });
    const error = await failure(client(mock).get(SUBSCRIPTION_GUID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ guid: SUBSCRIPTION_GUID, status: 200 });
    // Says what was received, not a 404 that never happened.
    expect(error.message).toContain(`200 OK with an empty list: no subscription has GUID ${SUBSCRIPTION_GUID}.`);
  });

  it("Subscribe answered with an empty array is unexpected (nothing says it was created)", async () => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", { status: 200, json: [] });
    const error = await failure(client(mock).subscribe(spec));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain("an empty list instead of the subscription");
  });

  it("several subscriptions where one is expected are unexpected", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: [documented(), documented({ GUID: OTHER_GUID })] });
    const error = await failure(client(mock).get(SUBSCRIPTION_GUID));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain("does not hold one subscription");
  });

  it("a refusal envelope still carries its validation messages", async () => {
    const mock = mockInstance();
    const message = {
      IsError: true,
      MessageDescription: "SubscriberURL is bad",
      Parameters: [],
      RelatedObjectGUID: SUBSCRIPTION_GUID,
      RelatedObjectType: 990,
      MessageID: 1001,
    };
    mock.on("SubscribeToWebhook", { status: 400, json: { Result: null, Messages: [message] } });
    expect(await failure(client(mock).subscribe(spec))).toBeInstanceOf(ValidationFailedError);
  });
});

describe("Unsubscribe's response, which the documentation does not show", () => {
  it.each([
    ["an empty body", { status: 200, text: "" }],
    ["a plain-text body", { status: 200, text: "OK" }],
    ["JSON true", { status: 200, json: true }],
    ["the spec's envelope", { status: 200, json: { Result: true, Messages: [] } }],
    ["204 No Content", { status: 204, text: "" }],
  ])("%s means done", async (_name, reply) => {
    const mock = mockInstance();
    mock.on("Unsubscribe", reply);
    await expect(client(mock).unsubscribe(SUBSCRIPTION_GUID)).resolves.toBeUndefined();
  });

  it("an envelope that says it failed is not done", async () => {
    const mock = mockInstance();
    mock.on("Unsubscribe", { status: 200, json: { Result: false, Messages: [] } });
    expect(await failure(client(mock).unsubscribe(SUBSCRIPTION_GUID))).toBeInstanceOf(UnexpectedResponseError);
  });
});

describe("Get of a subscription that does not exist: 400 The request is invalid", () => {
  it("is an UnreadableRequestError that may mean gone (the caller confirms through the list)", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 400, text: "The request is invalid." });
    const error = await failure(client(mock).get(SUBSCRIPTION_GUID));
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect(mayMeanGone(error)).toBe(true);
  });

  it.each([
    ["401", { status: 401, text: "" }, UnauthorizedError],
    ["403", { status: 403, text: "" }, ForbiddenError],
  ])("%s never means gone", async (_name, reply, kind) => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", reply);
    const error = await failure(client(mock).get(SUBSCRIPTION_GUID));
    expect(error).toBeInstanceOf(kind);
    expect(mayMeanGone(error)).toBe(false);
  });

  it("a GUID refused before sending, or a 400 on another operation, does not either", async () => {
    const mock = mockInstance();
    expect(mayMeanGone(await failure(client(mock).get("not-a-guid")))).toBe(false);
    mock.on("UpdateWebhookSubscription", { status: 400, text: "The request is invalid." });
    expect(mayMeanGone(await failure(client(mock).update(SUBSCRIPTION_GUID, spec)))).toBe(false);
  });
});

describe("requests stay exactly as the spec says", () => {
  it("Subscribe and Update send integers, whatever shape the answers had", async () => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", { status: 200, json: [documented()] });
    mock.on("UpdateWebhookSubscription", { status: 200, json: [documented()] });
    const c = client(mock);
    await c.subscribe(spec);
    await c.update(SUBSCRIPTION_GUID, { ...spec, webhook: Webhook.BusinessObjectTypeUpdated, filterObjectGuid: null });
    expect(mock.requests.map((r) => JSON.parse(r.body!))).toEqual([
      { Webhook: 0, FilterObjectType: 31, FilterObjectGUID: WORK_ITEM_GUID, SubscriberURL: spec.subscriberUrl },
      { GUID: SUBSCRIPTION_GUID, Webhook: 5, FilterObjectType: 31, SubscriberURL: spec.subscriberUrl },
    ]);
  });
});

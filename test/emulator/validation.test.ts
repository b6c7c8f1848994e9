/**
 * The two kinds of 400 (spec, Errors): an unreadable request (no Messages array) and a request
 * that was read but breaks a rule (envelope with Result null and one message per broken rule).
 */
import { describe, expect, it } from "vitest";
import { useEmulator, objectScopedBody, typeScopedBody, type HttpResult } from "../support/emulatorHarness";

const OBJECT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

const emulator = useEmulator();

/** A 400 whose body is `{"Error": ...}` and has no Messages array. */
function expectUnreadable(result: HttpResult, mentions: string): void {
  expect(result.status).toBe(400);
  expect(Object.keys(result.json)).toEqual(["Error"]);
  expect(result.json.Error).toContain(mentions);
}

describe("400 without Messages: the request cannot be read", () => {
  const subscribeCases: Array<[string, string, string]> = [
    ["malformed JSON", '{"Webhook": 3,', "not valid JSON"],
    ["an empty body", "", "Request body is missing"],
    ["a JSON array", "[]", "expected object"],
    ["JSON null", "null", "expected object"],
    [
      "Webhook as a name",
      JSON.stringify(typeScopedBody({ Webhook: "BusinessObjectCreated" })),
      "Webhook: Invalid input: expected number, received string (enumerations are sent as integers",
    ],
    [
      "Webhook as a numeric string",
      JSON.stringify(typeScopedBody({ Webhook: "3" })),
      "Webhook: Invalid input: expected number",
    ],
    [
      "FilterObjectType as a string",
      JSON.stringify(typeScopedBody({ FilterObjectType: "2" })),
      "FilterObjectType: Invalid input: expected number",
    ],
    ["an unrecognised field", JSON.stringify(typeScopedBody({ Extra: 1 })), 'Unrecognized key: "Extra"'],
    [
      "a camelCase field name",
      JSON.stringify({ webhook: 3, FilterObjectType: 2, SubscriberURL: "https://x.example/" }),
      "Unrecognized key",
    ],
    ["Webhook 6 (unknown member)", JSON.stringify(typeScopedBody({ Webhook: 6 })), "Webhook: Too big"],
    ["Webhook -1", JSON.stringify(typeScopedBody({ Webhook: -1 })), "Webhook: Too small"],
    ["Webhook 1.5", JSON.stringify(typeScopedBody({ Webhook: 1.5 })), "Webhook"],
    ["FilterObjectType -1", JSON.stringify(typeScopedBody({ FilterObjectType: -1 })), "FilterObjectType: Too small"],
    [
      "a malformed FilterObjectGUID",
      JSON.stringify(objectScopedBody(0, "not-a-guid")),
      "FilterObjectGUID: Invalid GUID",
    ],
    ["a missing Webhook", JSON.stringify({ FilterObjectType: 2, SubscriberURL: "https://x.example/" }), "Webhook"],
    [
      "a missing FilterObjectType",
      JSON.stringify({ Webhook: 3, SubscriberURL: "https://x.example/" }),
      "FilterObjectType",
    ],
    ["SubscriberURL as a number", JSON.stringify(typeScopedBody({ SubscriberURL: 5 })), "SubscriberURL"],
  ];
  it.each(subscribeCases)("Subscribe with %s", async (_name, raw, mentions) => {
    expectUnreadable(await emulator.config("SubscribeToWebhook", { raw }), mentions);
    expect(await emulator.all()).toEqual([]);
  });

  it("Update with a malformed or missing GUID, or an unrecognised field", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    expectUnreadable(
      await emulator.config("UpdateWebhookSubscription", { body: { GUID: "123", ...typeScopedBody() } }),
      "GUID: Invalid GUID",
    );
    expectUnreadable(await emulator.config("UpdateWebhookSubscription", { body: typeScopedBody() }), "GUID");
    expectUnreadable(
      await emulator.config("UpdateWebhookSubscription", {
        body: { GUID: saved.GUID, ...typeScopedBody({ Signature: "x" }) },
      }),
      'Unrecognized key: "Signature"',
    );
    expectUnreadable(
      await emulator.config("UpdateWebhookSubscription", {
        body: { GUID: saved.GUID, ...typeScopedBody({ Webhook: "3" }) },
      }),
      "Webhook",
    );
    expect(await emulator.all()).toEqual([saved]);
  });

  it("Get and Unsubscribe with a malformed, missing or repeated GUID in the query string", async () => {
    expectUnreadable(
      await emulator.config("GetWebhookSubscription", { query: { webhookSubscriptionGUID: "xyz" } }),
      "Query parameter webhookSubscriptionGUID: Invalid GUID",
    );
    expectUnreadable(
      await emulator.config("GetWebhookSubscription"),
      "Query parameter webhookSubscriptionGUID is required",
    );
    expectUnreadable(
      await emulator.config("Unsubscribe", {
        query: { webHookSubscriptionGUID: "{6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b}" },
      }),
      "Invalid GUID",
    );
    expectUnreadable(await emulator.config("Unsubscribe"), "Query parameter webHookSubscriptionGUID is required");
    const repeated = await fetch(
      `${emulator.url}/configuration/WebHookSubscription/GetWebhookSubscription?api-version=3&webhookSubscriptionGUID=${OBJECT}&webhookSubscriptionGUID=${OBJECT}`,
      { headers: { authorization: "Bearer dev-builder" } },
    );
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toEqual({ Error: "Query parameter webhookSubscriptionGUID must be given once." });
  });
});

describe("415: a body that is not labelled as JSON", () => {
  async function post(operation: string, body: string, contentType: string | null) {
    const headers: Record<string, string> = { authorization: "Bearer dev-builder" };
    if (contentType !== null) headers["content-type"] = contentType;
    const response = await fetch(`${emulator.url}/configuration/WebHookSubscription/${operation}?api-version=3`, {
      method: "POST",
      headers,
      body,
    });
    return { status: response.status, json: await response.json() };
  }

  it("refuses Subscribe and Update bodies sent as text, form or without Content-Type", async () => {
    const body = JSON.stringify(typeScopedBody());
    expect(await post("SubscribeToWebhook", body, "text/plain")).toEqual({
      status: 415,
      json: { Error: 'Content-Type must be application/json, got "text/plain".' },
    });
    expect((await post("SubscribeToWebhook", body, "application/x-www-form-urlencoded")).status).toBe(415);
    expect(
      (await post("UpdateWebhookSubscription", JSON.stringify({ GUID: OBJECT, ...typeScopedBody() }), "text/plain"))
        .status,
    ).toBe(415);
    const none = await fetch(`${emulator.url}/configuration/WebHookSubscription/SubscribeToWebhook`, {
      method: "POST",
      headers: { authorization: "Bearer dev-builder" },
      body: new Blob([body]),
    });
    expect(none.status).toBe(415);
    expect(await emulator.all()).toEqual([]);
  });

  it("accepts JSON media types with parameters or a +json suffix", async () => {
    const body = JSON.stringify(typeScopedBody());
    expect((await post("SubscribeToWebhook", body, "application/json; charset=utf-8")).status).toBe(200);
    expect((await post("SubscribeToWebhook", body, "Application/JSON")).status).toBe(200);
    expect((await post("SubscribeToWebhook", body, "application/vnd.service+json")).status).toBe(200);
  });
});

describe("400 with a validation envelope: the request breaks a rule", () => {
  /** Asserts a rule-failure envelope and returns its messages. */
  function messagesOf(result: HttpResult): Array<Record<string, unknown>> {
    expect(result.status).toBe(400);
    expect(result.json.Result).toBeNull();
    expect(result.json.Messages.length).toBeGreaterThan(0);
    return result.json.Messages;
  }

  /** The messages of a Subscribe of a type-scoped body with `fields` overridden. */
  async function subscribeMessages(fields: Record<string, unknown>) {
    return messagesOf(await emulator.config("SubscribeToWebhook", { body: typeScopedBody(fields) }));
  }

  it("1001: a SubscriberURL that is not an absolute http(s) URL, with every message field filled", async () => {
    const result = await emulator.config("SubscribeToWebhook", {
      body: typeScopedBody({ SubscriberURL: "hooks.example.com/x" }),
    });
    const [message] = messagesOf(result);
    expect(message).toEqual({
      IsError: true,
      MessageDescription: 'SubscriberURL "hooks.example.com/x" is not an absolute http or https URL.',
      Parameters: ["hooks.example.com/x"],
      RelatedObjectGUID: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      RelatedObjectType: 990,
      MessageID: 1001,
    });
    // Nothing is saved under the allocated GUID.
    const get = await emulator.config("GetWebhookSubscription", {
      query: { webhookSubscriptionGUID: String(message?.RelatedObjectGUID) },
    });
    expect(get.status).toBe(404);
    expect(await emulator.all()).toEqual([]);
  });

  it.each([
    ["ftp://hooks.example.com/x"],
    ["/relative/path"],
    ["http:hooks.example.com"],
    ["mailto:a@b.c"],
    ["http://"],
  ])("1001 for SubscriberURL %s", async (url) => {
    const [message] = messagesOf(
      await emulator.config("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: url }) }),
    );
    expect(message?.MessageID).toBe(1001);
    expect(message?.Parameters).toEqual([url]);
  });

  it("1001 for a missing, null or empty SubscriberURL", async () => {
    for (const body of [
      { Webhook: 3, FilterObjectType: 2 },
      typeScopedBody({ SubscriberURL: null }),
      typeScopedBody({ SubscriberURL: "" }),
    ]) {
      const messages = messagesOf(await emulator.config("SubscribeToWebhook", { body }));
      expect(messages.map((m) => [m.MessageID, m.MessageDescription])).toEqual([
        [1001, "SubscriberURL is required: give an absolute http or https URL."],
      ]);
    }
  });

  it.each([
    [0, "PacketCreated"],
    [1, "PacketUpdated"],
    [2, "NewCommunication"],
    [4, "SpecificBusinessObjectUpdated"],
  ])("1002: Webhook %i (%s) without FilterObjectGUID", async (webhook, name) => {
    const [message] = messagesOf(
      await emulator.config("SubscribeToWebhook", { body: typeScopedBody({ Webhook: webhook }) }),
    );
    expect(message?.MessageID).toBe(1002);
    expect(message?.Parameters).toEqual([name, webhook]);
    expect(message?.MessageDescription).toBe(
      `FilterObjectGUID is required for ${name} subscriptions (Webhook ${webhook}): give the GUID of the object to watch.`,
    );
  });

  it("1002 also for the all-zero FilterObjectGUID on an object-scoped event", async () => {
    const [message] = messagesOf(
      await emulator.config("SubscribeToWebhook", {
        body: objectScopedBody(0, "00000000-0000-0000-0000-000000000000"),
      }),
    );
    expect(message?.MessageID).toBe(1002);
  });

  it.each([
    [3, "BusinessObjectCreated"],
    [5, "BusinessObjectTypeUpdated"],
  ])("1003: Webhook %i (%s) with a FilterObjectGUID is refused", async (webhook, name) => {
    const [message] = messagesOf(
      await emulator.config("SubscribeToWebhook", { body: objectScopedBody(webhook, OBJECT) }),
    );
    expect(message?.MessageID).toBe(1003);
    expect(message?.Parameters).toEqual([OBJECT, name, webhook]);
    expect(message?.MessageDescription).toBe(
      `FilterObjectGUID "${OBJECT}" cannot scope a ${name} subscription (Webhook ${webhook}), which covers a whole object type: leave it out.`,
    );
  });

  it("1004: CustomHeaderValue without CustomHeader", async () => {
    for (const body of [
      typeScopedBody({ CustomHeaderValue: "v" }),
      typeScopedBody({ CustomHeader: "", CustomHeaderValue: "v" }),
    ]) {
      const messages = messagesOf(await emulator.config("SubscribeToWebhook", { body }));
      expect(messages.map((m) => m.MessageID)).toEqual([1004]);
    }
  });

  it("1005: CustomHeader that is not a valid header name after spaces become hyphens", async () => {
    const [message] = messagesOf(
      await emulator.config("SubscribeToWebhook", { body: typeScopedBody({ CustomHeader: "X Key: 1" }) }),
    );
    expect(message).toMatchObject({
      MessageID: 1005,
      Parameters: ["X Key: 1", "X-Key:-1"],
      MessageDescription: 'CustomHeader "X Key: 1" (saved as "X-Key:-1") is not a valid HTTP header name.',
    });
  });

  it.each([
    ["Host", "the HTTP client sets Host from the subscriber URL"],
    ["content length", "the HTTP client frames the message body itself"],
    ["Transfer-Encoding", "the HTTP client frames the message body itself"],
    ["Connection", "it controls the connection, not the message"],
    ["Content-Type", "the service sends every message as application/json"],
    ["X-Acme-Corp-Signature", "it carries the Signature, which a custom header must not forge"],
  ])("1006: CustomHeader %s is reserved, and the message says why", async (header, reason) => {
    const [message] = await subscribeMessages({ CustomHeader: header });
    expect(message).toMatchObject({ MessageID: 1006, Parameters: [header.replace(/ /g, "-"), reason] });
    expect(message?.MessageDescription).toContain(reason);
  });

  it.each([
    ["a line break", "v\r\nX-Evil: 1"],
    ["a NUL character", "v\0"],
    ["a control character", "v\x07"],
    ["a character outside Latin-1", "v€"],
  ])("1007: CustomHeaderValue with %s, never echoing the value", async (problem, value) => {
    const [message] = await subscribeMessages({ CustomHeader: "X-Key", CustomHeaderValue: value });
    expect(message).toMatchObject({ MessageID: 1007, Parameters: [problem] });
    expect(JSON.stringify(message)).not.toContain(JSON.stringify(value).slice(1, -1));
  });

  it.each([
    ["https://hooks.example.com/a b", "contains whitespace"],
    ["https://user:pw@hooks.example.com/a", "must not embed credentials"],
    ["https:/hooks.example.com", "is not an absolute"],
  ])("1001 for SubscriberURL %s", async (url, says) => {
    const [message] = await subscribeMessages({ SubscriberURL: url });
    expect(message?.MessageID).toBe(1001);
    expect(message?.MessageDescription).toContain(says);
    expect(message?.MessageDescription).not.toContain("pw@");
  });

  it("reports every broken rule, all about the same allocated GUID", async () => {
    const result = await emulator.config("SubscribeToWebhook", {
      body: {
        Webhook: 1,
        FilterObjectType: 2,
        SubscriberURL: "nope",
        CustomHeader: "Bad(Name)",
        CustomHeaderValue: "v",
      },
    });
    const messages = messagesOf(result);
    expect(messages.map((m) => m.MessageID)).toEqual([1001, 1002, 1005]);
    expect(new Set(messages.map((m) => m.RelatedObjectGUID)).size).toBe(1);
    const both = messagesOf(
      await emulator.config("SubscribeToWebhook", { body: objectScopedBody(3, OBJECT, { CustomHeaderValue: "v" }) }),
    );
    expect(both.map((m) => m.MessageID)).toEqual([1003, 1004]);
  });

  it("uses a fresh RelatedObjectGUID for each failed Subscribe", async () => {
    const a = messagesOf(await emulator.config("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: "x" }) }));
    const b = messagesOf(await emulator.config("SubscribeToWebhook", { body: typeScopedBody({ SubscriberURL: "x" }) }));
    expect(a[0]?.RelatedObjectGUID).not.toBe(b[0]?.RelatedObjectGUID);
  });

  it("Update failures name the subscription being updated and change nothing", async () => {
    const saved = await emulator.subscribe(typeScopedBody());
    const messages = messagesOf(
      await emulator.config("UpdateWebhookSubscription", {
        body: { GUID: saved.GUID, ...typeScopedBody({ SubscriberURL: "ftp://x" }) },
      }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ MessageID: 1001, RelatedObjectGUID: saved.GUID, RelatedObjectType: 990 });
    expect(await emulator.all()).toEqual([saved]);
  });

  it("unknown GUID on Update wins over rule failures (404)", async () => {
    const result = await emulator.config("UpdateWebhookSubscription", {
      body: { GUID: OBJECT, ...typeScopedBody({ SubscriberURL: "x" }) },
    });
    expect(result.status).toBe(404);
  });
});

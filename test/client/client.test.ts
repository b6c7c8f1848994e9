import { afterEach, describe, expect, it } from "vitest";
import {
  AimdRate,
  AmbiguousResultError,
  NotFoundError,
  RateLimitedError,
  RequestLimiter,
  ServerError,
  StoppedError,
  TransportError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnreadableRequestError,
  UnsupportedOperationError,
  ValidationFailedError,
  WebhookSubscriptionClient,
  type RequestEvent,
} from "../../provider/client";
import { EMPTY_GUID, Webhook, type SubscriptionSpec } from "../../provider/wire";
import { FakeClock } from "../support/fakeClock";
import { SUBSCRIPTION_GUID, WORK_ITEM_GUID, mockInstance, wireSubscription } from "./mockInstance";

const spec: SubscriptionSpec = {
  webhook: Webhook.PacketUpdated,
  filterObjectType: 2,
  filterObjectGuid: WORK_ITEM_GUID,
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X-Api-Key",
  customHeaderValue: "header-secret-value",
};
const envelope = (result: unknown) => ({ Result: result, Messages: [] });

const clients: WebhookSubscriptionClient[] = [];
function track(client: WebhookSubscriptionClient): WebhookSubscriptionClient {
  clients.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("WebhookSubscriptionClient over MockAgent", () => {
  it("list: sends api-version and the bearer token, decodes and normalises", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", {
      status: 200,
      json: [wireSubscription(), wireSubscription({ Webhook: 3, FilterObjectGUID: EMPTY_GUID })],
    });
    const subscriptions = await track(mock.client()).list();
    expect(subscriptions).toEqual([
      {
        guid: SUBSCRIPTION_GUID,
        webhook: 0,
        filterObjectType: 2,
        filterObjectGuid: WORK_ITEM_GUID,
        subscriberUrl: "https://hooks.example.com/orders",
        signature: "9d1e8c7b-0000-4000-8000-000000000001",
        customHeader: "",
        customHeaderValue: null,
      },
      expect.objectContaining({ webhook: 3, filterObjectGuid: null }),
    ]);
    expect(mock.requests).toMatchObject([
      {
        method: "GET",
        path: "/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3",
        headers: { authorization: "Bearer unit-test-token", accept: "application/json" },
      },
    ]);
  });

  it("get: sends the GUID parameter, accepts a one-element array, 404 → NotFoundError", async () => {
    const mock = mockInstance();
    mock.on(
      "GetWebhookSubscription",
      { status: 200, json: [wireSubscription()] },
      { status: 404, json: { Error: "none" } },
    );
    const client = track(mock.client({ apiVersion: "4-preview" }));
    expect((await client.get(SUBSCRIPTION_GUID.toUpperCase())).guid).toBe(SUBSCRIPTION_GUID);
    const missing = await client.get(SUBSCRIPTION_GUID).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ guid: SUBSCRIPTION_GUID, attempts: 1 });
    expect(mock.requests[0]?.path).toBe(
      `/configuration/WebHookSubscription/GetWebhookSubscription?webhookSubscriptionGUID=${SUBSCRIPTION_GUID}&api-version=4-preview`,
    );
  });

  it("keeps a base URL path prefix", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] });
    await track(mock.client({ baseUrl: `${mock.origin}/tenant-a/` })).list();
    expect(mock.requests[0]?.path).toMatch(/^\/tenant-a\/configuration\/WebHookSubscription\//);
  });

  it("get with a malformed GUID is refused before sending", async () => {
    const mock = mockInstance();
    const error = await track(mock.client())
      .get("not-a-guid")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect((error as UnreadableRequestError).sent).toBe(false);
    expect((error as Error).message).toContain("webhookSubscriptionGUID: Invalid GUID");
    expect(mock.requests).toHaveLength(0);
  });

  it("subscribe: encodes the spec through the codec as integers, returns the new subscription", async () => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", {
      status: 200,
      json: envelope(
        wireSubscription({ Webhook: 1, CustomHeader: "X-Api-Key", CustomHeaderValue: "header-secret-value" }),
      ),
    });
    const created = await track(mock.client()).subscribe(spec);
    expect(created).toMatchObject({ guid: SUBSCRIPTION_GUID, webhook: 1, customHeader: "X-Api-Key" });
    const request = mock.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body!)).toEqual({
      Webhook: 1,
      FilterObjectType: 2,
      FilterObjectGUID: WORK_ITEM_GUID,
      SubscriberURL: "https://hooks.example.com/orders",
      CustomHeader: "X-Api-Key",
      CustomHeaderValue: "header-secret-value",
    });
  });

  it("subscribe with a value the wire schema refuses sends nothing", async () => {
    const mock = mockInstance();
    const error = await track(mock.client())
      .subscribe({ ...spec, webhook: 9 as never })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect((error as Error).message).toContain("Webhook: Too big");
    expect(mock.requests).toHaveLength(0);
  });

  it("subscribe: 400 with Messages → ValidationFailedError; the custom header value is redacted", async () => {
    const mock = mockInstance();
    const message = {
      IsError: true,
      MessageDescription: "Bad header value header-secret-value",
      Parameters: ["header-secret-value"],
      RelatedObjectGUID: SUBSCRIPTION_GUID,
      RelatedObjectType: 990,
      MessageID: 1005,
    };
    mock.on("SubscribeToWebhook", { status: 400, json: { Result: null, Messages: [message] } });
    const error = (await track(mock.client())
      .subscribe(spec)
      .catch((e: unknown) => e)) as ValidationFailedError;
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error.messages[0]?.messageId).toBe(1005);
    expect(error.message).toContain("[1005] Bad header value [REDACTED]");
    expect(JSON.stringify(error)).not.toContain("header-secret-value");
  });

  it.each([
    ["a 503", { status: 503, text: "" }],
    ["a reset connection", { error: "ECONNRESET" }],
    ["a lost response", { error: "UND_ERR_SOCKET" }],
  ])("subscribe after %s is ambiguous and not repeated", async (_name, reply) => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", reply, { status: 200, json: envelope(wireSubscription()) });
    const error = await track(mock.client())
      .subscribe(spec)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousResultError);
    expect((error as AmbiguousResultError).cause).toBeInstanceOf("status" in reply ? ServerError : TransportError);
    // The second reply is still pending: the client did not send again.
    expect(mock.agent.pendingInterceptors()).toHaveLength(1);
  });

  it("subscribe is retried after 429 and after a refused connection (nothing was sent)", async () => {
    const mock = mockInstance();
    mock.on(
      "SubscribeToWebhook",
      { error: "ECONNREFUSED" },
      { status: 429, text: "" },
      { status: 200, json: envelope(wireSubscription()) },
    );
    const events: RequestEvent[] = [];
    // After the 429 the limiter paces the retry: on a fake clock, so the test does not wait for it.
    const clock = new FakeClock();
    const client = track(
      mock.client({ limiter: new RequestLimiter(new AimdRate(), clock), onRequest: (event) => events.push(event) }),
    );
    const created = await clock.runUntil(client.subscribe(spec));
    expect(created.guid).toBe(SUBSCRIPTION_GUID);
    expect(events.map((e) => [e.attempt, e.status ?? e.networkCode, e.retryInMs !== undefined])).toEqual([
      [1, "ECONNREFUSED", true],
      [2, 429, true],
      [3, 200, false],
    ]);
    expect(JSON.stringify(events)).not.toContain("unit-test-token");
  });

  it("a signal aborted during a 429's backoff ends the call at once with StoppedError; an aborted one sends nothing", async () => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", { status: 429, text: "" }, { status: 429, text: "" });
    const stop = new AbortController();
    // Backoffs of 5 s: the call can only end within the test's time by being stopped.
    const client = track(mock.client({ signal: stop.signal, retry: { baseMs: 5000, capMs: 5000 } }));
    const call = client.subscribe(spec);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stoppedAt = Date.now();
    stop.abort();
    const error = await call.catch((err: unknown) => err);
    expect(Date.now() - stoppedAt).toBeLessThan(500);
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).message).toContain(
      "stopped while rate limited; nothing more was sent after attempt 1. Run again to finish",
    );
    expect(mock.requests).toHaveLength(1);

    const never = await client.list().catch((err: unknown) => err);
    expect((never as StoppedError).message).toContain(
      "GetAllWebhookSubscriptions (api-version 3) failed: stopped before the request was sent; nothing was sent.",
    );
    expect(mock.requests).toHaveLength(1);
  });

  it("update: sends the GUID in the body; 404 → NotFoundError; 5xx → ambiguous", async () => {
    const mock = mockInstance();
    mock.on(
      "UpdateWebhookSubscription",
      { status: 200, json: envelope(wireSubscription()) },
      { status: 404, json: { Error: "No webhook subscription" } },
      { status: 500, text: "" },
    );
    const client = track(mock.client());
    await client.update(SUBSCRIPTION_GUID.toUpperCase(), spec);
    expect(JSON.parse(mock.requests[0]!.body!)).toMatchObject({ GUID: SUBSCRIPTION_GUID, Webhook: 1 });
    await expect(client.update(SUBSCRIPTION_GUID, spec)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.update(SUBSCRIPTION_GUID, spec)).rejects.toBeInstanceOf(AmbiguousResultError);
  });

  it("GET is retried on 5xx and network errors, up to maxAttempts", async () => {
    const mock = mockInstance();
    mock.on(
      "GetAllWebhookSubscriptions",
      { status: 502, text: "" },
      { error: "ECONNRESET" },
      { status: 200, json: [] },
    );
    const client = track(mock.client());
    expect(await client.list()).toEqual([]);
    mock.on("GetAllWebhookSubscriptions", ...Array.from({ length: 3 }, () => ({ status: 503, text: "busy" })));
    const error = await track(mock.client({ retry: { baseMs: 1, capMs: 2, maxAttempts: 3 } }))
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, attempts: 3 });
  });

  it("429 is retried until the deadline (not maxAttempts), paced by the limiter, then RateLimitedError", async () => {
    const mock = mockInstance();
    mock.pool
      .intercept({ path: (p) => p.includes("/GetAllWebhookSubscriptions?") })
      .reply(429, "")
      .persist();
    // The limiter's clock paces the retries and measures the deadline: a fake one proves both
    // without waiting. Backoffs are 0 ms (capMs 1), so fake time moves by pacing alone.
    const clock = new FakeClock();
    const MIN_RPS = 0.5;
    const DEADLINE_MS = 5000;
    const sentAt: number[] = [];
    const client = track(
      mock.client({
        limiter: new RequestLimiter(new AimdRate({ minRequestsPerSecond: MIN_RPS }), clock),
        retry: { baseMs: 1, capMs: 1, deadlineMs: DEADLINE_MS, maxAttempts: 2 },
        onRequest: (event) => sentAt.push(clock.now() - event.durationMs),
      }),
    );
    const error = await clock.runUntil(client.list().catch((e: unknown) => e));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).attempts).toBe(sentAt.length);
    // 429s are bounded by the deadline alone, not by maxAttempts.
    expect(sentAt.length).toBeGreaterThan(2);
    // After the first 429 the limiter paces this instance: no two attempts at the same moment.
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]).toBeGreaterThan(sentAt[i - 1]!);
    // Retried while the deadline allowed, and given up at the first attempt past it, at most
    // one pacing interval (at the slowest rate) beyond.
    expect(sentAt.slice(0, -1).every((t) => t <= DEADLINE_MS)).toBe(true);
    expect(sentAt.at(-1)).toBeGreaterThan(DEADLINE_MS - 1);
    expect(sentAt.at(-1)).toBeLessThanOrEqual(DEADLINE_MS + 1000 / MIN_RPS);
  });

  it("unsubscribe: first-attempt 404 → NotFoundError; 404 after an ambiguous attempt → success", async () => {
    const mock = mockInstance();
    mock.on(
      "Unsubscribe",
      { status: 404, text: "" },
      { status: 503, text: "" },
      { status: 404, text: "" },
      { status: 200, json: envelope(true) },
    );
    const client = track(mock.client());
    await expect(client.unsubscribe(SUBSCRIPTION_GUID)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.unsubscribe(SUBSCRIPTION_GUID)).resolves.toBeUndefined();
    await expect(client.unsubscribe(SUBSCRIPTION_GUID)).resolves.toBeUndefined();
    expect(mock.requests.map((r) => r.path)).toEqual(
      Array(4).fill(
        `/configuration/WebHookSubscription/Unsubscribe?webHookSubscriptionGUID=${SUBSCRIPTION_GUID}&api-version=3`,
      ),
    );
    expect(mock.requests[0]?.body).toBeUndefined();
  });

  it("unsubscribe is retried past maxAttempts until the deadline (idempotent); a read still stops at maxAttempts", async () => {
    const failures = [
      { status: 503, text: "" },
      { error: "ECONNRESET" },
      { status: 503, text: "" },
      { error: "ECONNRESET" },
      { status: 503, text: "" },
      { error: "ECONNRESET" },
    ];
    const mock = mockInstance();
    mock.on("Unsubscribe", ...failures, { status: 404, text: "" });
    mock.on("GetAllWebhookSubscriptions", ...failures);
    const client = track(mock.client({ retry: { baseMs: 1, capMs: 2, maxAttempts: 4 } }));
    // Seven attempts, the last finding the subscription gone after attempts that may have deleted it: done.
    await expect(client.unsubscribe(SUBSCRIPTION_GUID)).resolves.toBeUndefined();
    expect(mock.requests.filter((r) => r.path.includes("/Unsubscribe?"))).toHaveLength(4); // + 3 resets, unrecorded
    const error = await client.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).attempts).toBe(4);
  });

  it("responses that break the contract → UnexpectedResponseError with the zod issues", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: { GUID: "nope" } }, { status: 200, text: "<html>" });
    const client = track(mock.client());
    const mismatch = (await client.get(SUBSCRIPTION_GUID).catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(mismatch).toBeInstanceOf(UnexpectedResponseError);
    expect(mismatch.issues?.map((i) => i.path[0])).toEqual(expect.arrayContaining(["GUID", "Signature"]));
    await expect(client.get(SUBSCRIPTION_GUID)).rejects.toThrow(/the response is not JSON/);
  });

  it("a static token refused with 401 → UnauthorizedError, no retry; no token configured says so", async () => {
    const mock = mockInstance();
    mock.on("GetAllWebhookSubscriptions", { status: 401, text: "" }, { status: 401, text: "" });
    await expect(track(mock.client()).list()).rejects.toThrow(/the instance refused the bearer token\./);
    await expect(track(mock.client({ token: undefined })).list()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(mock.requests[1]?.headers.authorization).toBeUndefined();
  });

  it("legacy mode: subscribe and unsubscribe on the legacy paths; get, list, update refused locally", async () => {
    const mock = mockInstance();
    mock.on("SubscribeToWebhook", { status: 200, json: envelope(wireSubscription()) });
    mock.on("Unsubscribe", { status: 200, json: envelope(true) });
    const client = track(mock.client({ apiVersion: "2024.1" }));
    expect(client.legacy).toBe(true);
    await client.subscribe(spec);
    await client.unsubscribe(SUBSCRIPTION_GUID);
    expect(mock.requests.map((r) => r.path)).toEqual([
      "/legacy/WebHookSubscription/SubscribeToWebhook?api-version=2024.1",
      `/legacy/WebHookSubscription/Unsubscribe?webHookSubscriptionGUID=${SUBSCRIPTION_GUID}&api-version=2024.1`,
    ]);
    for (const call of [
      () => client.get(SUBSCRIPTION_GUID),
      () => client.list(),
      () => client.update(SUBSCRIPTION_GUID, spec),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedOperationError);
      expect((error as Error).message).toMatch(/legacy API \(2024\.1\) has no \w+ operation/);
    }
    expect(mock.requests).toHaveLength(2);
  });

  it("withApiVersion: a sibling on the same transport and credentials", async () => {
    const mock = mockInstance();
    mock.on("GetWebhookSubscription", { status: 200, json: wireSubscription() });
    const legacy = track(mock.client({ apiVersion: "2024.1" }));
    const configuration = legacy.withApiVersion("3");
    expect([configuration.apiVersion, configuration.legacy, legacy.apiVersion]).toEqual(["3", false, "2024.1"]);
    await configuration.get(SUBSCRIPTION_GUID);
    expect(mock.requests[0]?.headers.authorization).toBe("Bearer unit-test-token");
    expect(() => legacy.withApiVersion("9" as never)).toThrow(/apiVersion must be one of/);
  });

  it("close() leaves an injected dispatcher open", async () => {
    const mock = mockInstance();
    await mock.client().close();
    mock.on("GetAllWebhookSubscriptions", { status: 200, json: [] });
    await expect(track(mock.client()).list()).resolves.toEqual([]);
  });
});

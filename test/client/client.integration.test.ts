/**
 * The client against the real emulator over loopback: the happy path of every operation, and
 * every error class produced by a real response (or a real network failure).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AimdRate,
  AmbiguousResultError,
  ClosedWorkItemError,
  ConfigurationError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  RequestLimiter,
  ServerError,
  TransportError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnreadableRequestError,
  UnsupportedOperationError,
  ValidationFailedError,
  VersionCannotRepresentError,
  WebhookSubscriptionClient,
  errorFromResponse,
  type ClientSettings,
} from "../../provider/client";
import { MessageId, Webhook, versionCannotRepresentText, type SubscriptionSpec } from "../../provider/wire";
import { EmulatorHarness } from "../support/emulatorHarness";
import { FakeClock } from "../support/fakeClock";

const WORK_ITEM = "0b7d4f6e-1c2a-4b3d-9e8f-7a6b5c4d3e2f";
const UNKNOWN = "00000000-1111-4222-8333-444444444444";
const created: SubscriptionSpec = {
  webhook: Webhook.PacketCreated,
  filterObjectType: 2,
  filterObjectGuid: WORK_ITEM,
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X Api Key",
  customHeaderValue: "header-secret",
};

let emulator: EmulatorHarness;
const clients: WebhookSubscriptionClient[] = [];

/** A client of the emulator; fast retries so failure paths finish quickly. */
function client(settings: Partial<ClientSettings> = {}): WebhookSubscriptionClient {
  const instance = new WebhookSubscriptionClient({
    baseUrl: emulator.url,
    token: "dev-builder",
    retry: { baseMs: 5, capMs: 20 },
    ...settings,
  });
  clients.push(instance);
  return instance;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("expected the call to fail");
  return outcome;
}

async function faults(rules: unknown[]): Promise<void> {
  expect((await emulator.admin("PUT", "/faults", rules)).status).toBe(200);
}

async function stats(): Promise<{ requests: Record<string, number>; status: Record<string, number> }> {
  return (await emulator.admin("GET", "/stats")).json;
}

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
});
beforeEach(async () => {
  await emulator.reset();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emulator.close();
});

describe("operations", () => {
  it("subscribe, get, list, update, unsubscribe round-trip", async () => {
    const api = client();
    const subscription = await api.subscribe(created);
    expect(subscription).toMatchObject({
      webhook: 0,
      filterObjectGuid: WORK_ITEM,
      customHeader: "X-Api-Key",
      customHeaderValue: "header-secret",
    });
    expect(await api.get(subscription.guid)).toEqual(subscription);
    expect(await api.list()).toEqual([subscription]);

    const updated = await api.update(subscription.guid, { ...created, subscriberUrl: "https://hooks.example.com/v2" });
    expect(updated).toEqual({ ...subscription, subscriberUrl: "https://hooks.example.com/v2" });

    await api.unsubscribe(subscription.guid);
    expect(await api.list()).toEqual([]);
  });

  it("sends the api-version it was built with on every call", async () => {
    for (const version of ["1", "2", "4-preview"] as const) {
      const api = client({ apiVersion: version });
      await api.list();
    }
    expect((await stats()).status["200"]).toBe(3);
  });
});

describe("every error class from the real emulator", () => {
  it("UnauthorizedError: no token, an unknown token, an expired token", async () => {
    await expect(client({ token: undefined }).list()).rejects.toThrow(/401 Unauthorized: no credential was sent/);
    await expect(client({ token: "not-a-real-token" }).list()).rejects.toBeInstanceOf(UnauthorizedError);
    await emulator.admin("POST", "/tokens/dev-builder/expire");
    const error = await failure(client().list());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).not.toContain("dev-builder");
  });

  it("ForbiddenError: authenticated without the Builder role", async () => {
    const error = await failure(client({ token: "dev-reader" }).subscribe(created));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toContain("Builder role");
  });

  it("NotFoundError: get, update and a first-attempt unsubscribe of an unknown GUID", async () => {
    const api = client();
    for (const call of [() => api.get(UNKNOWN), () => api.update(UNKNOWN, created), () => api.unsubscribe(UNKNOWN)]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ guid: UNKNOWN, status: 404 });
    }
  });

  it("NotFoundError about the endpoint on a legacy-only instance", async () => {
    const legacyOnly = await EmulatorHarness.start({ legacyOnly: true });
    try {
      const api = new WebhookSubscriptionClient({ baseUrl: legacyOnly.url, token: "dev-builder" });
      clients.push(api);
      const error = await failure(api.list());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toContain("the instance has no such endpoint");
    } finally {
      await legacyOnly.close();
    }
  });

  it("ValidationFailedError: a SubscriberURL that is not absolute, with MessageID and the allocated GUID", async () => {
    const error = await failure(client().subscribe({ ...created, subscriberUrl: "hooks/orders" }));
    expect(error).toBeInstanceOf(ValidationFailedError);
    const [message] = (error as ValidationFailedError).messages;
    expect(message).toMatchObject({ messageId: MessageId.SubscriberUrlInvalid, isError: true, relatedObjectType: 990 });
    expect(message?.relatedObjectGuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).not.toContain("header-secret");
  });

  it("ClosedWorkItemError: PacketUpdated on a Closed work item, naming it", async () => {
    await emulator.admin("PUT", `/work-items/${WORK_ITEM}`, { Closed: true });
    const error = await failure(client().subscribe({ ...created, webhook: Webhook.PacketUpdated }));
    expect(error).toBeInstanceOf(ClosedWorkItemError);
    expect((error as ClosedWorkItemError).workItemGuid).toBe(WORK_ITEM);
    expect(error.message).toContain(`work item ${WORK_ITEM} is Closed`);
  });

  it("legacy mode: closed-packet subscribe answers 200 but saves nothing; confirm through the configuration API", async () => {
    await emulator.admin("PUT", `/work-items/${WORK_ITEM}`, { Closed: true });
    const legacy = client({ apiVersion: "2024.1" });
    const claimed = await legacy.subscribe({ ...created, webhook: Webhook.PacketUpdated });
    await expect(legacy.withApiVersion("3").get(claimed.guid)).rejects.toBeInstanceOf(NotFoundError);
    // A normal legacy subscribe is real, and legacy unsubscribe removes it.
    const real = await legacy.subscribe(created);
    expect(await legacy.withApiVersion("3").get(real.guid)).toEqual(real);
    await legacy.unsubscribe(real.guid);
    expect(await legacy.withApiVersion("3").list()).toEqual([]);
  });

  it("UnreadableRequestError: the emulator's real 400 without Messages, classified by the factory", async () => {
    // The client refuses to send such a body, so send it raw, as another client might.
    const raw = await emulator.config("SubscribeToWebhook", {
      body: { Webhook: "PacketCreated", FilterObjectType: 2, SubscriberURL: "https://x.example.com" },
    });
    expect(raw.status).toBe(400);
    const error = errorFromResponse({ operation: "SubscribeToWebhook", apiVersion: "3" }, raw.status, raw.text);
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect(error.message).toContain("enumerations are sent as integers");
  });

  it("UnreadableRequestError: a 400 without Messages reaching the client", async () => {
    await faults([
      { operation: "SubscribeToWebhook", kind: "status", status: 400, body: '{"Error":"Unrecognised field"}' },
    ]);
    const error = await failure(client().subscribe(created));
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect((error as UnreadableRequestError).sent).toBe(true);
  });

  it("VersionCannotRepresentError: suggests newer api-versions", async () => {
    const body = versionCannotRepresentText("1", "Webhook", 6);
    await faults([{ operation: "GetAllWebhookSubscriptions", kind: "status", status: 400, body }]);
    const error = await failure(client({ apiVersion: "1" }).list());
    expect(error).toBeInstanceOf(VersionCannotRepresentError);
    expect(error.message).toContain("Call a newer api-version (2, 3, 4-preview)");
  });

  it("RateLimitedError: 429 until the deadline", async () => {
    // Its own instance: the limiter this test slows down is shared by every client of a base URL.
    const limited = await EmulatorHarness.start({ rateLimit: { requestsPerSecond: 0.001, burst: 1 } });
    try {
      // The deadline and the pacing on a fake clock: a slow round trip on a loaded machine cannot
      // eat the budget of the retry, and the test does not wait for the pacing interval. Backoffs
      // are 0 ms (capMs 1): the real time between fake timers stays short.
      const clock = new FakeClock();
      const api = client({
        baseUrl: limited.url,
        limiter: new RequestLimiter(new AimdRate(), clock),
        retry: { baseMs: 1, capMs: 1, deadlineMs: 300 },
      });
      await api.list(); // takes the only token
      const error = await clock.runUntil(failure(api.list()));
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as RateLimitedError).attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await limited.close();
    }
  });

  it("TransportError: connection refused (retried, as nothing was sent), and a timeout", async () => {
    const gone = await EmulatorHarness.start();
    const url = gone.url;
    await gone.close();
    const refused = await failure(client({ baseUrl: url }).subscribe(created));
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused).toMatchObject({ networkCode: "ECONNREFUSED", attempts: 4 });

    await faults([{ operation: "GetAllWebhookSubscriptions", kind: "delay", delayMs: 2000 }]);
    const slow = await failure(client({ timeoutMs: 150, retry: { baseMs: 5, capMs: 10, maxAttempts: 2 } }).list());
    expect(slow).toBeInstanceOf(TransportError);
    expect(slow).toMatchObject({ networkCode: "UND_ERR_HEADERS_TIMEOUT", attempts: 2 });
  });

  it("ServerError: GETs retry 5xx, then give up after maxAttempts", async () => {
    await faults([{ operation: "GetAllWebhookSubscriptions", kind: "status", status: 503, count: 1 }]);
    expect(await client().list()).toEqual([]);
    expect((await stats()).requests.GetAllWebhookSubscriptions).toBe(2);

    await faults([{ operation: "GetAllWebhookSubscriptions", kind: "status", status: 500 }]);
    const error = await failure(client().list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, attempts: 4 });
  });

  it("UnexpectedResponseError: a 200 that breaks the contract, with the zod issues", async () => {
    await faults([{ operation: "GetWebhookSubscription", kind: "status", status: 200, body: '{"GUID":"x"}' }]);
    const error = await failure(client().get(UNKNOWN));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).issues?.length).toBeGreaterThan(0);
  });

  it("AmbiguousResultError: response lost after commit; the subscription exists, and was not duplicated", async () => {
    await faults([{ operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 }]);
    const api = client();
    const error = await failure(api.subscribe(created));
    expect(error).toBeInstanceOf(AmbiguousResultError);
    expect(error.message).toContain("may or may not have been created");
    expect((await api.list()).map((s) => s.subscriberUrl)).toEqual([created.subscriberUrl]);
    expect((await stats()).requests.SubscribeToWebhook).toBe(1);
  });

  it("AmbiguousResultError: connection reset before commit looks the same, and nothing exists", async () => {
    await faults([{ operation: "UpdateWebhookSubscription", kind: "reset-before-commit", count: 1 }]);
    const api = client();
    const subscription = await api.subscribe(created);
    const error = await failure(
      api.update(subscription.guid, { ...created, subscriberUrl: "https://hooks.example.com/v2" }),
    );
    expect(error).toBeInstanceOf(AmbiguousResultError);
    expect(error.message).toContain("may or may not have been changed");
    expect((await api.get(subscription.guid)).subscriberUrl).toBe(created.subscriberUrl);
  });

  it("AmbiguousResultError: a timeout after sending a Subscribe", async () => {
    await faults([{ operation: "SubscribeToWebhook", kind: "delay", delayMs: 1000, count: 1 }]);
    const error = await failure(client({ timeoutMs: 150 }).subscribe(created));
    expect(error).toBeInstanceOf(AmbiguousResultError);
    expect((error as AmbiguousResultError).cause).toBeInstanceOf(TransportError);
  });

  it("Unsubscribe retried after a lost response counts the 404 as success", async () => {
    const api = client();
    const subscription = await api.subscribe(created);
    await faults([{ operation: "Unsubscribe", kind: "reset-after-commit", count: 1 }]);
    await api.unsubscribe(subscription.guid);
    expect((await stats()).requests.Unsubscribe).toBe(2);
    expect(await api.list()).toEqual([]);
  });

  it("UnsupportedOperationError: get, list, update in legacy mode send nothing", async () => {
    const legacy = client({ apiVersion: "2024.1" });
    for (const call of [() => legacy.get(UNKNOWN), () => legacy.list(), () => legacy.update(UNKNOWN, created)]) {
      expect(await failure(call())).toBeInstanceOf(UnsupportedOperationError);
    }
    expect((await stats()).requests).toEqual({});
  });

  it("ConfigurationError: a base URL that is not a URL", () => {
    expect(() => client({ baseUrl: "localhost:8080" })).toThrow(ConfigurationError);
  });
});

/**
 * An emulator that is safe to expose: off loopback it needs an admin token, which guards the
 * admin API and replaces the well-known dev credentials; it never delivers to its own listener;
 * custom header names are delivered or refused explicitly; the number of subscriptions is capped.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorOptionError, OWN_LISTENER_ERROR, startEmulator, type RunningEmulator } from "../../emulator";
import { parseEmulatorArgs as parseCliArgs } from "../../cli/emulator";
import { messageHeaders } from "../../emulator/events";
import { resolveOptions } from "../../emulator/options";
import type { StoredSubscription } from "../../emulator/stateFile";
import { MessageId } from "../../provider/wire";
import { BUILDER, http, typeScopedBody, useEmulator } from "../support/emulatorHarness";

const ADMIN_TOKEN = "admin-token-0123456789abcdef";

function optionError(fn: () => unknown): EmulatorOptionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(EmulatorOptionError);
    return error as EmulatorOptionError;
  }
  throw new Error("expected an EmulatorOptionError");
}

describe("start options", () => {
  it("refuses a non-loopback address without an admin token, naming the host and the flag", () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.10", "example.test"]) {
      const error = optionError(() => resolveOptions({ host }));
      expect(error.option).toBe("adminToken");
      expect(error.message).toContain(JSON.stringify(host));
      expect(error.message).toContain("--admin-token");
    }
  });

  it("keeps loopback addresses open and the dev tokens on", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1"]) {
      expect(resolveOptions({ host })).toMatchObject({ adminToken: null, devTokens: true });
    }
  });

  it("turns the dev tokens off off loopback unless allowed", () => {
    expect(resolveOptions({ host: "0.0.0.0", adminToken: ADMIN_TOKEN }).devTokens).toBe(false);
    expect(resolveOptions({ host: "0.0.0.0", adminToken: ADMIN_TOKEN, allowDevTokens: true }).devTokens).toBe(true);
  });

  it("refuses a short admin token without showing it", () => {
    const error = optionError(() => resolveOptions({ host: "0.0.0.0", adminToken: "short-secret" }));
    expect(error.message).toContain("at least 16 characters");
    expect(error.message).not.toContain("short-secret");
    expect(String(error.value)).not.toContain("short-secret");
  });

  it("checks maxSubscriptions", () => {
    expect(resolveOptions({}).maxSubscriptions).toBe(10_000);
    expect(optionError(() => resolveOptions({ maxSubscriptions: 0 })).message).toBe(
      "maxSubscriptions must be a whole number >= 1, got 0",
    );
  });

  it("reads the new flags from the command line", () => {
    expect(
      parseCliArgs(["--host", "0.0.0.0", "--admin-token", ADMIN_TOKEN, "--allow-dev-tokens", "--max-subscriptions=5"]),
    ).toEqual({ host: "0.0.0.0", adminToken: ADMIN_TOKEN, allowDevTokens: true, maxSubscriptions: 5 });
  });
});

describe("bound to every interface with an admin token", () => {
  let emulator: RunningEmulator;
  let base: string;
  beforeAll(async () => {
    emulator = await startEmulator({ host: "0.0.0.0", port: 0, adminToken: ADMIN_TOKEN });
    base = `http://127.0.0.1:${emulator.port}`;
  });
  afterAll(() => emulator.close());

  const list = (authorization: string) =>
    http(`${base}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`, {
      headers: { authorization },
    });

  it("the admin API answers 401 without the admin token, and works with it", async () => {
    const reset = (headers: Record<string, string>) => http(`${base}/_emulator/reset`, { method: "POST", headers });
    expect((await reset({})).status).toBe(401);
    expect((await reset({ authorization: "Bearer dev-builder" })).status).toBe(401);
    const wrong = await reset({ authorization: `Bearer ${ADMIN_TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("--admin-token");
    expect(wrong.text).not.toContain(ADMIN_TOKEN);
    expect((await reset({ authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(200);
  });

  it("the dev tokens and the dev OAuth secret are refused; the admin token is the Builder credential", async () => {
    expect((await list(BUILDER)).status).toBe(401);
    expect((await list("Bearer dev-reader")).status).toBe(401);
    expect((await list(`Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    const oauth = (secret: string) =>
      http(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: "dev-client", client_secret: secret }),
      });
    expect((await oauth("dev-secret")).status).toBe(401);
    const issued = await oauth(ADMIN_TOKEN);
    expect(issued.status).toBe(200);
    expect((await list(`Bearer ${issued.json.access_token}`)).status).toBe(200);
  });
});

describe("dev tokens explicitly allowed off loopback", () => {
  it("accepts dev-builder, and the admin API still needs the admin token", async () => {
    const emulator = await startEmulator({ host: "0.0.0.0", port: 0, adminToken: ADMIN_TOKEN, allowDevTokens: true });
    try {
      const base = `http://127.0.0.1:${emulator.port}`;
      const listed = await http(`${base}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`, {
        headers: { authorization: BUILDER },
      });
      expect(listed.status).toBe(200);
      expect((await http(`${base}/_emulator/stats`)).status).toBe(401);
    } finally {
      await emulator.close();
    }
  });
});

describe("delivery targets", () => {
  const emulator = useEmulator({ deliveryTimeoutMs: 1000 });

  it("never delivers to the emulator's own listener, under any loopback name; the state survives", async () => {
    const { port } = new URL(emulator.url);
    const targets = [
      `http://127.0.0.1:${port}/_emulator/reset`,
      `http://localhost:${port}/_emulator/reset`,
      `http://127.0.0.2:${port}/_emulator/faults`,
      `http://[::1]:${port}/configuration/WebHookSubscription/Unsubscribe`,
    ];
    for (const target of targets) await emulator.subscribe(typeScopedBody({ SubscriberURL: target }));
    const fired = await emulator.admin("POST", "/events", { Webhook: 3 });
    expect(fired.status).toBe(200);
    expect(fired.json.deliveries.map((d: { error: string }) => d.error)).toEqual(targets.map(() => OWN_LISTENER_ERROR));
    expect(await emulator.all()).toHaveLength(targets.length);
  });
});

describe("custom header names at delivery", () => {
  let receiver: Server;
  let receiverUrl: string;
  /** Raw header lists: Node's parsed `headers` object is no place to look for a `__proto__` key. */
  const received: string[][] = [];
  const emulator = useEmulator();
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      received.push(request.rawHeaders);
      request.resume();
      request.on("end", () => response.end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("delivers __proto__ and constructor like any other name", async () => {
    for (const name of ["__proto__", "constructor"]) {
      received.length = 0;
      await emulator.reset();
      await emulator.subscribe(
        typeScopedBody({ SubscriberURL: receiverUrl, CustomHeader: name, CustomHeaderValue: `value-of-${name}` }),
      );
      const fired = await emulator.admin("POST", "/events", { Webhook: 3 });
      expect(fired.json.deliveries[0]).toMatchObject({ status: 200, error: null });
      const raw = received[0] ?? [];
      expect(raw[raw.indexOf(name) + 1]).toBe(`value-of-${name}`);
    }
  });

  const stored = (CustomHeader: string): StoredSubscription => ({
    GUID: "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    Webhook: 3,
    FilterObjectGUID: null,
    FilterObjectType: 2,
    SubscriberURL: receiverUrl,
    Signature: "9d1e8c7b-0000-4000-8000-000000000001",
    CustomHeader,
    CustomHeaderValue: "v",
  });

  it.each(["Host", "Content-Length", "transfer-encoding", "CONNECTION", "Content-Type", "X-Service-Signature"])(
    "refuses a delivery whose custom header %s would replace a transport or emulator header, saying so",
    (name) => {
      const prepared = messageHeaders(stored(name), "service");
      expect(prepared).toEqual({ ok: false, refused: expect.stringContaining(JSON.stringify(name)) });
    },
  );

  it("builds the headers in a map without prototype", () => {
    const prepared = messageHeaders(stored("X-Api-Key"), "service");
    expect(prepared.ok && Object.getPrototypeOf(prepared.headers)).toBe(null);
  });
});

describe("cap on stored subscriptions", () => {
  const emulator = useEmulator({ maxSubscriptions: 2 });

  it("refuses a Subscribe beyond the cap with a validation message, and accepts again after an Unsubscribe", async () => {
    const first = await emulator.subscribe(typeScopedBody());
    await emulator.subscribe(typeScopedBody());
    const refused = await emulator.config("SubscribeToWebhook", { body: typeScopedBody() });
    expect(refused.status).toBe(400);
    expect(refused.json.Result).toBe(null);
    expect(refused.json.Messages).toEqual([
      expect.objectContaining({
        IsError: true,
        MessageID: MessageId.SubscriptionLimitReached,
        Parameters: [2],
        RelatedObjectType: 990,
        MessageDescription: expect.stringContaining("already holds 2 webhook subscriptions"),
      }),
    ]);
    expect(await emulator.all()).toHaveLength(2);
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: first.GUID } });
    expect((await emulator.config("SubscribeToWebhook", { body: typeScopedBody() })).status).toBe(200);
  });
});

/**
 * Authentication (spec, Authentication; product.md, tokens): 401 without a valid token, 403
 * without the Builder role, on every operation of both APIs; the OAuth2 token endpoint and
 * token expiry.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS, type Operation } from "../../provider/wire";
import { FakeClock } from "../support/fakeClock";
import { useEmulator, http, READER, typeScopedBody, type HttpResult } from "../support/emulatorHarness";

const OBJECT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const QUERY = { webhookSubscriptionGUID: OBJECT, webHookSubscriptionGUID: OBJECT };
const LEGACY: readonly Operation[] = ["SubscribeToWebhook", "Unsubscribe"];

const clock = new FakeClock();
const emulator = useEmulator({ tokenTtlSeconds: 1, clock });

/** Calls `operation` on both APIs where it exists, with the given Authorization header. */
async function everyOperation(auth: string | null): Promise<Array<[string, HttpResult]>> {
  const results: Array<[string, HttpResult]> = [];
  for (const operation of OPERATIONS) {
    results.push([
      `configuration ${operation}`,
      await emulator.config(operation, { auth, query: QUERY, body: typeScopedBody() }),
    ]);
  }
  for (const operation of LEGACY) {
    results.push([
      `legacy ${operation}`,
      await emulator.legacy(operation, { auth, query: QUERY, body: typeScopedBody() }),
    ]);
  }
  return results;
}

function statuses(results: Array<[string, HttpResult]>): Record<string, number> {
  return Object.fromEntries(results.map(([name, result]) => [name, result.status]));
}

function tokenForm(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResult> {
  return http(`${emulator.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function issueToken(): Promise<string> {
  const result = await tokenForm({
    grant_type: "client_credentials",
    client_id: "dev-client",
    client_secret: "dev-secret",
  });
  expect(result.status).toBe(200);
  return result.json.access_token;
}

const ALL_401 = {
  "configuration GetAllWebhookSubscriptions": 401,
  "configuration GetWebhookSubscription": 401,
  "configuration SubscribeToWebhook": 401,
  "configuration UpdateWebhookSubscription": 401,
  "configuration Unsubscribe": 401,
  "legacy SubscribeToWebhook": 401,
  "legacy Unsubscribe": 401,
};

describe("fixed tokens", () => {
  it.each([
    [null],
    ["Bearer nobody"],
    ["Bearer"],
    ["Basic ZGV2LWNsaWVudDpkZXYtc2VjcmV0"],
    ["dev-builder"],
    ["Bearer dev-builder extra"],
  ])("Authorization %j gets 401 on every operation", async (auth) => {
    const results = await everyOperation(auth);
    expect(statuses(results)).toEqual(ALL_401);
    expect(results[0]?.[1].json.Error).toBe("A valid bearer token is required: send Authorization: Bearer <token>.");
  });

  it("dev-reader gets 403 on every operation", async () => {
    const results = await everyOperation(READER);
    expect(Object.values(statuses(results))).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(results[0]?.[1].json).toEqual({ Error: "The bearer token is valid but lacks the Builder role." });
    expect(await emulator.all()).toEqual([]);
  });

  it("dev-builder passes on every operation (the bearer scheme is case-insensitive)", async () => {
    expect(statuses(await everyOperation("bearer dev-builder"))).toEqual({
      "configuration GetAllWebhookSubscriptions": 200,
      "configuration GetWebhookSubscription": 404,
      "configuration SubscribeToWebhook": 200,
      // The shared body has no GUID: read as far as the body, which proves auth passed.
      "configuration UpdateWebhookSubscription": 400,
      "configuration Unsubscribe": 404,
      "legacy SubscribeToWebhook": 200,
      "legacy Unsubscribe": 404,
    });
  });

  it("checks auth before the body and before not-found", async () => {
    expect((await emulator.config("SubscribeToWebhook", { auth: READER, raw: "{" })).status).toBe(403);
    expect((await emulator.config("GetWebhookSubscription", { auth: null, query: QUERY })).status).toBe(401);
  });
});

describe("POST /oauth/token", () => {
  it("issues an expiring Builder token from client credentials in the form", async () => {
    const result = await tokenForm({
      grant_type: "client_credentials",
      client_id: "dev-client",
      client_secret: "dev-secret",
    });
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.json).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      token_type: "Bearer",
      expires_in: 1,
    });
    const token = result.json.access_token;
    expect(token).not.toBe(await issueToken());
    expect(
      (await emulator.config("SubscribeToWebhook", { auth: `Bearer ${token}`, body: typeScopedBody() })).status,
    ).toBe(200);
    clock.advance(999);
    expect((await emulator.config("GetAllWebhookSubscriptions", { auth: `Bearer ${token}` })).status).toBe(200);
    clock.advance(1);
    const expired = await emulator.config("GetAllWebhookSubscriptions", { auth: `Bearer ${token}` });
    expect(expired.status).toBe(401);
  });

  it("accepts client credentials in HTTP Basic", async () => {
    const basic = Buffer.from("dev-client:dev-secret").toString("base64");
    const result = await tokenForm({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(result.status).toBe(200);
    expect(result.json.token_type).toBe("Bearer");
  });

  it("answers bad client credentials with 401 invalid_client", async () => {
    const attempts: Array<Record<string, string>> = [
      { grant_type: "client_credentials", client_id: "dev-client", client_secret: "wrong" },
      { grant_type: "client_credentials", client_id: "other", client_secret: "dev-secret" },
      { grant_type: "client_credentials" },
    ];
    for (const fields of attempts) {
      const result = await tokenForm(fields);
      expect(result.status).toBe(401);
      expect(result.json.error).toBe("invalid_client");
    }
  });

  it("answers a wrong grant_type with 400 unsupported_grant_type and a missing one with invalid_request", async () => {
    const wrong = await tokenForm({ grant_type: "password", client_id: "dev-client", client_secret: "dev-secret" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("unsupported_grant_type");
    const missing = await tokenForm({ client_id: "dev-client", client_secret: "dev-secret" });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe("invalid_request");
  });

  it("answers a JSON body with 400 invalid_request", async () => {
    const result = await http(`${emulator.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: "dev-client", client_secret: "dev-secret" }),
    });
    expect(result.status).toBe(400);
    expect(result.json.error).toBe("invalid_request");
  });
});

describe("POST /_emulator/tokens/{token}/expire", () => {
  it("expires an issued token at once", async () => {
    const token = await issueToken();
    expect((await emulator.admin("POST", `/tokens/${token}/expire`)).status).toBe(200);
    expect((await emulator.config("GetAllWebhookSubscriptions", { auth: `Bearer ${token}` })).status).toBe(401);
  });

  it("expires dev-builder until reset", async () => {
    await emulator.admin("POST", "/tokens/dev-builder/expire");
    expect(statuses(await everyOperation("Bearer dev-builder"))).toEqual(ALL_401);
    await emulator.reset();
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(200);
  });
});

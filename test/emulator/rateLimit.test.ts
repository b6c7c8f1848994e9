/**
 * Rate limiting (spec, Limits): a token bucket over both APIs; 429 with no Retry-After header;
 * configurable at start and through the admin API.
 */
import { describe, expect, it } from "vitest";
import { EmulatorHarness, useEmulator, http, typeScopedBody } from "../support/emulatorHarness";
import { FakeClock } from "../support/fakeClock";

// A slow refill, and time that moves only when a test moves it.
const clock = new FakeClock();
const emulator = useEmulator({ rateLimit: { requestsPerSecond: 0.1, burst: 3 }, clock });

describe("token bucket from the start options", () => {
  it("lets `burst` requests through, then answers 429 without Retry-After", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await emulator.config("GetAllWebhookSubscriptions")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await emulator.legacy("SubscribeToWebhook", { body: typeScopedBody() });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(limited.json).toEqual({ Error: "Too many requests: slow down and retry." });
  });

  it("checks the rate limit before auth, after the version", async () => {
    for (let i = 0; i < 3; i++) await emulator.config("GetAllWebhookSubscriptions");
    expect((await emulator.config("GetAllWebhookSubscriptions", { auth: null })).status).toBe(429);
    expect((await emulator.config("GetAllWebhookSubscriptions", { version: "0" })).status).toBe(400);
  });

  it("never limits the admin API or the token endpoint", async () => {
    for (let i = 0; i < 3; i++) await emulator.config("GetAllWebhookSubscriptions");
    for (let i = 0; i < 5; i++) expect((await emulator.admin("GET", "/stats")).status).toBe(200);
    const token = await http(`${emulator.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=dev-client&client_secret=dev-secret",
    });
    expect(token.status).toBe(200);
  });

  it("counts 429s in the stats", async () => {
    for (let i = 0; i < 5; i++) await emulator.config("GetAllWebhookSubscriptions");
    const stats = (await emulator.admin("GET", "/stats")).json;
    expect(stats.status).toEqual({ "200": 3, "429": 2 });
    expect(stats.requests).toEqual({ GetAllWebhookSubscriptions: 5 });
  });
});

describe("PUT /_emulator/rate-limit", () => {
  it("turns the limit off with null, and reset restores the start options", async () => {
    expect((await emulator.admin("PUT", "/rate-limit", null)).json).toEqual({ rateLimit: null });
    for (let i = 0; i < 10; i++) expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(200);
    await emulator.reset();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await emulator.config("GetAllWebhookSubscriptions")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("refills at requestsPerSecond; burst defaults to requestsPerSecond", async () => {
    const set = await emulator.admin("PUT", "/rate-limit", { requestsPerSecond: 10 });
    expect(set.json).toEqual({ rateLimit: { requestsPerSecond: 10, burst: 10 } });
    await emulator.admin("PUT", "/rate-limit", { requestsPerSecond: 10, burst: 1 });
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(200);
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(429);
    clock.advance(50);
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(429);
    clock.advance(50);
    expect((await emulator.config("GetAllWebhookSubscriptions")).status).toBe(200);
  });

  it.each([
    [{ requestsPerSecond: 0 }, "requestsPerSecond must be a positive number"],
    [{ requestsPerSecond: -5 }, "requestsPerSecond must be a positive number"],
    [{ requestsPerSecond: 5, burst: 0.5 }, "burst must be a number >= 1"],
    [{ requestsPerSecond: "5" }, "requestsPerSecond"],
    [{ rps: 5 }, "Unrecognized key"],
  ])("refuses %j with 400", async (body, mentions) => {
    const result = await emulator.admin("PUT", "/rate-limit", body);
    expect(result.status).toBe(400);
    expect(result.json.Error).toContain(mentions);
  });
});

describe("start options", () => {
  it("has no limit by default", async () => {
    const unlimited = await EmulatorHarness.start();
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, () => unlimited.config("GetAllWebhookSubscriptions")),
      );
      expect(results.every((result) => result.status === 200)).toBe(true);
    } finally {
      await unlimited.close();
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  ConfigurationError,
  WebhookSubscriptionClient,
  resolveSettings,
  type ClientSettings,
} from "../../provider/client";

function configurationError(settings: unknown): ConfigurationError {
  try {
    resolveSettings(settings as ClientSettings);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

describe("client settings", () => {
  it("applies the defaults and normalises the base URL", () => {
    const resolved = resolveSettings({ baseUrl: "https://instance.example.com/api/" });
    expect(resolved).toMatchObject({
      baseUrl: "https://instance.example.com/api",
      origin: "https://instance.example.com",
      basePath: "/api",
      apiVersion: "3",
      productName: "service",
      timeoutMs: 30_000,
      retry: { deadlineMs: 120_000, baseMs: 250, capMs: 10_000, maxAttempts: 4 },
    });
  });

  it.each([
    [
      { baseUrl: "ftp://x" },
      "baseUrl",
      'Client settings are invalid: baseUrl must be an absolute http(s) URL such as "https://instance.example.com", got: "ftp://x".',
    ],
    [{ baseUrl: "instance.example.com" }, "baseUrl", 'got: "instance.example.com"'],
    [{ baseUrl: "https://x.test/?a=1" }, "baseUrl", "must not have a query"],
    [
      { baseUrl: "https://x.test", apiVersion: "5" },
      "apiVersion",
      'must be one of "1", "2", "3", "4-preview", "2024.1", got: "5"',
    ],
    [
      { baseUrl: "https://x.test", maxRequestsPerSecond: 0 },
      "maxRequestsPerSecond",
      "must be a positive number, got: 0",
    ],
    [{ baseUrl: "https://x.test", timeoutMs: -1 }, "timeoutMs", "got: -1"],
    [
      { baseUrl: "https://x.test", retry: { baseMs: 500, capMs: 100 } },
      "retry.capMs",
      "must be at least retry.baseMs (500), got: 100",
    ],
    [{ baseUrl: "https://x.test", retry: { maxAttempts: 1.5 } }, "retry.maxAttempts", "whole number"],
    [{ baseUrl: "https://x.test", productName: "my product" }, "productName", 'got: "my product"'],
    [
      { baseUrl: "https://x.test", oauth: { clientId: "", clientSecret: "s", tokenUrl: "https://idp.test" } },
      "oauth.clientId",
      "must be a non-empty string",
    ],
    [
      { baseUrl: "https://x.test", oauth: { clientId: "a", clientSecret: "s", tokenUrl: "nope" } },
      "oauth.tokenUrl",
      'got: "nope"',
    ],
    [{ baseUrl: "https://x.test", dispatcher: {} }, "dispatcher", "undici Dispatcher"],
  ])("%j → %s", (settings, field, message) => {
    const error = configurationError(settings);
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it("never shows a secret value", () => {
    const token = configurationError({ baseUrl: "https://x.test", token: "abc def-secret" });
    expect(token.field).toBe("token");
    expect(token.message).not.toContain("def-secret");
    const secret = configurationError({
      baseUrl: "https://x.test",
      oauth: { clientId: "a", clientSecret: "has space-secret", tokenUrl: "https://idp.test" },
    });
    expect(secret.field).toBe("oauth.clientSecret");
    expect(secret.message).not.toContain("space-secret");
    const both = configurationError({
      baseUrl: "https://x.test",
      token: "t-secret",
      oauth: { clientId: "a", clientSecret: "s", tokenUrl: "https://i.test" },
    });
    expect(both.message).toContain("not both");
    expect(both.message).not.toContain("t-secret");
  });

  it("the client validates in its constructor", () => {
    expect(() => new WebhookSubscriptionClient({ baseUrl: "not a url" })).toThrow(ConfigurationError);
  });
});

/** Connection settings: stack config first, then WEBHOOKS_* env; what is missing said in config terms. */
import { describe, expect, it } from "vitest";
import { WebhookSubscriptionClient } from "../../provider/client";
import { settingsFromConfig } from "../../provider/resource/settings";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("settingsFromConfig", () => {
  it("prefers stack config over the environment, and defaults api-version and product", () => {
    const env = { WEBHOOKS_BASE_URL: "https://env.example.com", WEBHOOKS_TOKEN: "env-token", WEBHOOKS_MAX_RPS: "5" };
    expect(settingsFromConfig(config({ "webhooks:baseUrl": "https://cfg.example.com" }), env)).toEqual({
      baseUrl: "https://cfg.example.com",
      apiVersion: "3",
      productName: "service",
      token: "env-token",
      maxRequestsPerSecond: 5,
    });
  });

  it("takes OAuth client credentials when there is no token, and names what is missing", () => {
    const oauth = {
      WEBHOOKS_BASE_URL: "https://x.example.com",
      WEBHOOKS_CLIENT_ID: "id",
      WEBHOOKS_CLIENT_SECRET: "s3cret",
      WEBHOOKS_TOKEN_URL: "https://x.example.com/oauth/token",
    };
    expect(settingsFromConfig(undefined, oauth).oauth).toEqual({
      clientId: "id",
      clientSecret: "s3cret",
      tokenUrl: "https://x.example.com/oauth/token",
    });
    const { WEBHOOKS_TOKEN_URL: _omitted, ...incomplete } = oauth;
    expect(() => settingsFromConfig(undefined, incomplete)).toThrow(/webhooks:tokenUrl.*missing/);
    expect(() => settingsFromConfig(undefined, incomplete)).not.toThrow(/s3cret/);
  });

  it("says how to set a missing base URL or missing credentials", () => {
    expect(() => settingsFromConfig(undefined, {})).toThrow(
      /webhooks:baseUrl.*not set.*pulumi config set webhooks:baseUrl .*WEBHOOKS_BASE_URL/,
    );
    expect(() => settingsFromConfig(undefined, { WEBHOOKS_BASE_URL: "https://x.example.com" })).toThrow(
      /webhooks:token.*--secret/,
    );
  });

  it("rejects a bad api-version and RPS by name, and leaves the URL's checks to the client", () => {
    const env = { WEBHOOKS_BASE_URL: "https://x.example.com", WEBHOOKS_TOKEN: "t" };
    expect(() => settingsFromConfig(config({ "webhooks:apiVersion": "5" }), env)).toThrow(
      /apiVersion.*webhooks:apiVersion.*got: "5"/,
    );
    expect(() => settingsFromConfig(config({ "webhooks:maxRequestsPerSecond": "fast" }), env)).toThrow(
      /webhooks:maxRequestsPerSecond.*got: "fast"/,
    );
    const ftp = settingsFromConfig(undefined, { ...env, WEBHOOKS_BASE_URL: "ftp://x.example.com" });
    expect(() => new WebhookSubscriptionClient(ftp)).toThrow(/baseUrl.*webhooks:baseUrl/);
  });
});

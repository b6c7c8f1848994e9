import { describe, expect, it } from "vitest";
import { MockAgent } from "undici";
import {
  OAuthClientCredentials,
  UnauthorizedError,
  UnexpectedResponseError,
  WebhookSubscriptionClient,
} from "../../provider/client";
import type { ErrorContext } from "../../provider/client";
import { mockInstance, wireSubscription } from "./mockInstance";

const context: ErrorContext = { operation: "GetAllWebhookSubscriptions", apiVersion: "3" };
const TOKEN_URL = "http://idp.test/oauth/token";
const oauth = { clientId: "dev-client", clientSecret: "client-secret-value", tokenUrl: TOKEN_URL };

/** A MockAgent token endpoint that issues token-1, token-2, … and records each form it received. */
function tokenEndpoint(expiresIn = 3600) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const forms: URLSearchParams[] = [];
  agent
    .get("http://idp.test")
    .intercept({ path: "/oauth/token", method: "POST" })
    .reply((options) => {
      forms.push(new URLSearchParams(String(options.body)));
      return {
        statusCode: 200,
        data: JSON.stringify({ access_token: `token-${forms.length}`, token_type: "Bearer", expires_in: expiresIn }),
      };
    })
    .persist();
  return { agent, forms };
}

describe("OAuthClientCredentials", () => {
  it("posts the client-credentials form once and caches the token; concurrent callers share one request", async () => {
    const { agent, forms } = tokenEndpoint();
    const credentials = new OAuthClientCredentials(oauth, { dispatcher: agent, timeoutMs: 1000 });
    const headers = await Promise.all([1, 2, 3].map(() => credentials.authorization(context)));
    expect(headers).toEqual(["Bearer token-1", "Bearer token-1", "Bearer token-1"]);
    expect(credentials.authorization(context)).toBe("Bearer token-1"); // synchronous from the cache
    expect(forms).toHaveLength(1);
    expect(Object.fromEntries(forms[0]!)).toEqual({
      grant_type: "client_credentials",
      client_id: "dev-client",
      client_secret: "client-secret-value",
    });
  });

  it("renews shortly before expiry", async () => {
    const { agent, forms } = tokenEndpoint(100);
    let now = 0;
    const credentials = new OAuthClientCredentials(oauth, {
      dispatcher: agent,
      timeoutMs: 1000,
      clock: { now: () => now },
    });
    expect(await credentials.authorization(context)).toBe("Bearer token-1");
    now = 89_000; // renewal margin is a tenth of the lifetime: renew from 90 s
    expect(await credentials.authorization(context)).toBe("Bearer token-1");
    now = 90_000;
    expect(await credentials.authorization(context)).toBe("Bearer token-2");
    expect(forms).toHaveLength(2);
  });

  it("a refused token is dropped only if it is still the cached one", async () => {
    const { agent } = tokenEndpoint();
    const credentials = new OAuthClientCredentials(oauth, { dispatcher: agent, timeoutMs: 1000 });
    await credentials.authorization(context);
    expect(credentials.refused("Bearer stale")).toBe(true);
    expect(credentials.authorization(context)).toBe("Bearer token-1");
    credentials.refused("Bearer token-1");
    expect(await credentials.authorization(context)).toBe("Bearer token-2");
    expect(credentials.secrets()).toEqual(["client-secret-value", "token-1", "token-2"]);
  });

  it("a refused client → UnauthorizedError naming the token URL, never the secret", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get("http://idp.test")
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply(401, { error: "invalid_client", echoed: "client_secret=client-secret-value" });
    const credentials = new OAuthClientCredentials(oauth, { dispatcher: agent, timeoutMs: 1000 });
    const error = (await Promise.resolve(credentials.authorization(context)).catch(
      (e: unknown) => e,
    )) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toContain(`the OAuth token endpoint ${TOKEN_URL} answered 401 Unauthorized`);
    expect(JSON.stringify(error) + error.message).not.toContain("client-secret-value");
  });

  it("a token response without access_token → UnexpectedResponseError", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get("http://idp.test").intercept({ path: "/oauth/token", method: "POST" }).reply(200, { token: "x" });
    const credentials = new OAuthClientCredentials(oauth, { dispatcher: agent, timeoutMs: 1000 });
    await expect(Promise.resolve(credentials.authorization(context))).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe("the client with OAuth", () => {
  function oauthInstance() {
    const mock = mockInstance();
    const issued: string[] = [];
    mock.pool
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply(() => {
        issued.push(`oauth-${issued.length + 1}`);
        return { statusCode: 200, data: JSON.stringify({ access_token: issued.at(-1), expires_in: 3600 }) };
      })
      .persist();
    const client = new WebhookSubscriptionClient({
      baseUrl: mock.origin,
      oauth: { clientId: "dev-client", clientSecret: "dev-secret", tokenUrl: `${mock.origin}/oauth/token` },
      dispatcher: mock.agent,
      retry: { baseMs: 1, capMs: 2 },
    });
    return { mock, issued, client };
  }

  it("renews the token once on a 401 and retries once", async () => {
    const { mock, issued, client } = oauthInstance();
    mock.on("GetWebhookSubscription", { status: 401, text: "" }, { status: 200, json: wireSubscription() });
    await client.get(wireSubscription().GUID);
    expect(issued).toEqual(["oauth-1", "oauth-2"]);
    expect(mock.requests.map((r) => r.headers.authorization)).toEqual(["Bearer oauth-1", "Bearer oauth-2"]);
  });

  it("a second 401 in the same call is final", async () => {
    const { mock, issued, client } = oauthInstance();
    mock.on(
      "GetAllWebhookSubscriptions",
      { status: 401, text: "" },
      { status: 401, text: "" },
      { status: 200, json: [] },
    );
    const error = await client.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toContain("the instance refused a freshly issued OAuth token");
    expect(issued).toHaveLength(2);
  });
});

/**
 * OAuth client credentials against the real emulator: the token is fetched once, renewed once
 * when it stops working mid-run (401), and renewed ahead of expiry.
 */
import { afterEach, expect, it } from "vitest";
import { Agent, type Dispatcher } from "undici";
import { WebhookSubscriptionClient } from "../../provider/client";
import { EmulatorHarness } from "../support/emulatorHarness";

let emulator: EmulatorHarness | undefined;
const closables: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closables.splice(0).map((c) => c.close()));
  await emulator?.close();
});

/** A keep-alive agent that records every Authorization header and token request it carries. */
function recordingDispatcher() {
  const agent = new Agent();
  closables.push(agent);
  const authorizations: string[] = [];
  let tokenRequests = 0;
  const dispatcher: Dispatcher = agent.compose((dispatch) => (options, handler) => {
    if (options.path.startsWith("/oauth/token")) tokenRequests += 1;
    const headers = (options.headers ?? {}) as Record<string, string>;
    if (headers.authorization) authorizations.push(headers.authorization);
    return dispatch(options, handler);
  });
  return { dispatcher, authorizations, tokenRequests: () => tokenRequests };
}

function oauthClient(url: string, dispatcher: Dispatcher): WebhookSubscriptionClient {
  const client = new WebhookSubscriptionClient({
    baseUrl: url,
    oauth: { clientId: "dev-client", clientSecret: "dev-secret", tokenUrl: `${url}/oauth/token` },
    dispatcher,
  });
  closables.push(client);
  return client;
}

it("a token expiring mid-run is renewed once, and every call succeeds", async () => {
  emulator = await EmulatorHarness.start();
  const recorder = recordingDispatcher();
  const client = oauthClient(emulator.url, recorder.dispatcher);
  await client.list();
  const first = recorder.authorizations[0]!.replace(/^Bearer /, "");
  expect(recorder.tokenRequests()).toBe(1);

  expect((await emulator.admin("POST", `/tokens/${encodeURIComponent(first)}/expire`)).status).toBe(200);
  // Many calls in flight when the token stops working: one renewal serves them all.
  await Promise.all(Array.from({ length: 20 }, () => client.list()));
  expect(recorder.tokenRequests()).toBe(2);
  const stats = (await emulator.admin("GET", "/stats")).json;
  expect(stats.status["401"]).toBeGreaterThanOrEqual(1);
  expect(stats.status["200"]).toBe(21);
});

it("renews ahead of expiry, so a short-lived token never draws a 401", async () => {
  emulator = await EmulatorHarness.start({ tokenTtlSeconds: 1 });
  const recorder = recordingDispatcher();
  const client = oauthClient(emulator.url, recorder.dispatcher);
  const deadline = performance.now() + 2500;
  let calls = 0;
  while (performance.now() < deadline) {
    await client.list();
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stats = (await emulator.admin("GET", "/stats")).json;
  expect(stats.status["401"]).toBeUndefined();
  expect(stats.status["200"]).toBe(calls);
  expect(recorder.tokenRequests()).toBeGreaterThanOrEqual(3);
});

/**
 * OAuth client credentials against the real emulator: the token is fetched once, renewed once
 * when it stops working mid-run (401), and renewed ahead of expiry.
 */
import { afterEach, expect, it } from "vitest";
import { Agent, type Dispatcher } from "undici";
import { WebhookSubscriptionClient } from "../../provider/client";
import { EmulatorHarness } from "../support/emulatorHarness";
import { FakeClock } from "../support/fakeClock";

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

function oauthClient(url: string, dispatcher: Dispatcher, clock?: FakeClock): WebhookSubscriptionClient {
  const client = new WebhookSubscriptionClient({
    baseUrl: url,
    oauth: { clientId: "dev-client", clientSecret: "dev-secret", tokenUrl: `${url}/oauth/token` },
    dispatcher,
    clock,
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
  // One clock for the identity provider and the client: 2.5 s of calls every 50 ms, without waiting.
  const clock = new FakeClock();
  emulator = await EmulatorHarness.start({ tokenTtlSeconds: 1, clock });
  const recorder = recordingDispatcher();
  const client = oauthClient(emulator.url, recorder.dispatcher, clock);
  const calls = 50;
  for (let call = 0; call < calls; call++) {
    await client.list();
    clock.advance(50);
  }
  const stats = (await emulator.admin("GET", "/stats")).json;
  expect(stats.status["401"]).toBeUndefined();
  expect(stats.status["200"]).toBe(calls);
  // A 1 s token renewed 100 ms ahead: one token per 900 ms of the 2.5 s.
  expect(recorder.tokenRequests()).toBe(3);
});

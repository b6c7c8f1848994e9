/**
 * Property test of the emulator's whole HTTP surface (fuzz.test.ts covers the bodies of Subscribe
 * and Update): random methods, paths (API, legacy, admin, OAuth and made-up), query strings,
 * headers, content types and bodies — including a body over the size limit, JSON nested 100 000
 * deep and binary — sent with fetch, plus malformed HTTP written straight to a socket. Never a
 * 5xx, never a crash, the server answers throughout, and the state file it leaves loads again.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";
import { issueToken } from "../support/tokenProxy";
import { FUZZ_SEED } from "../support/fuzzSeed";

const GUID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const OPERATIONS = [
  "GetAllWebhookSubscriptions",
  "GetWebhookSubscription",
  "SubscribeToWebhook",
  "UpdateWebhookSubscription",
  "Unsubscribe",
];

/** Paths near and far from the real ones. */
const path = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.constantFrom("/configuration", "/legacy"), fc.constantFrom(...OPERATIONS))
      .map(([api, op]) => `${api}/WebHookSubscription/${op}`),
    weight: 6,
  },
  {
    arbitrary: fc.constantFrom(
      "/_emulator/reset",
      "/_emulator/stats",
      "/_emulator/faults",
      "/_emulator/rate-limit",
      `/_emulator/work-items/${GUID}`,
      "/_emulator/work-items/not-a-guid",
      "/_emulator/events",
      "/_emulator/tokens/some-token/expire",
      `/_emulator/tokens/${"t".repeat(2000)}/expire`,
      "/oauth/token",
    ),
    weight: 3,
  },
  fc.constantFrom(
    "/",
    "",
    "//",
    "/configuration/WebHookSubscription/",
    "/CONFIGURATION/webhooksubscription/getallwebhooksubscriptions",
    "/configuration/WebHookSubscription/SubscribeToWebhook/",
    "/configuration/../_emulator/stats",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/a%ZZb",
    "/_emulator",
    "/_emulator/",
    `/${"x".repeat(5000)}`,
  ),
  fc.webPath(),
);

/** Query strings: the parameters the API reads, given well, badly, twice or not at all. */
const query = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "api-version=3",
        "api-version=3",
        "api-version=3",
        "api-version=1",
        "api-version=4-preview",
        "api-version=2024.1",
        "api-version=",
        "api-version=99",
        "api-version=3&api-version=2",
        "api-version=%ZZ",
      ),
      fc.constantFrom(
        `webhookSubscriptionGUID=${GUID}`,
        `webHookSubscriptionGUID=${GUID}`,
        "webhookSubscriptionGUID=nope",
        "webHookSubscriptionGUID=",
        `webHookSubscriptionGUID=${GUID}&webHookSubscriptionGUID=${GUID}`,
      ),
      fc.tuple(fc.string(), fc.string()).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
      fc.webQueryParameters(),
    ),
    { maxLength: 4 },
  )
  .map((parts) => (parts.length > 0 ? `?${parts.join("&")}` : ""));

const authorization = fc.constantFrom(
  undefined,
  "Bearer dev-builder",
  "Bearer dev-builder",
  "Bearer dev-builder",
  "Bearer dev-builder",
  "bearer   dev-builder",
  "Bearer dev-reader",
  "Bearer",
  "Bearer a b",
  "Basic ZGV2LWNsaWVudDpkZXYtc2VjcmV0",
  `Bearer ${"z".repeat(8000)}`,
  "",
);
const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/vnd.api+json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
  "*/*",
  ";;;",
);

/** Nested `depth` deep, built as text (JSON.stringify of such a value would overflow the test's own stack). */
const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** Bodies: nothing, text, JSON (plausible or not), form data, binary, over the limit, absurdly deep. */
const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 4 },
  {
    arbitrary: fc
      .constantFrom(
        typeScopedBody(),
        { ...typeScopedBody(), GUID },
        [typeScopedBody()],
        { requestsPerSecond: 5 },
        { rules: [] },
        { Closed: true },
        { Webhook: 3, ObjectGUID: GUID },
      )
      .map((v) => JSON.stringify(v)),
    weight: 3,
  },
  fc.string(),
  fc.constantFrom(
    "",
    " ",
    "{",
    "null",
    "[]",
    "{}{}",
    "\u0000",
    "grant_type=client_credentials&client_id=dev-client&client_secret=dev-secret",
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
  ),
  fc.uint8Array({ maxLength: 512 }),
  fc.constantFrom(deepArray(100_000), deepObject(100_000), `{"Webhook":${deepArray(50_000)}}`),
  fc.constant(
    JSON.stringify({
      Webhook: 3,
      FilterObjectType: 2,
      SubscriberURL: `https://hooks.example.com/${"x".repeat(1_100_000)}`,
    }),
  ),
);

const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND", "FOO");

/** The method a path is served with, so that most requests get past routing. */
function expectedMethod(p: string): string | undefined {
  if (/\/(GetAllWebhookSubscriptions|GetWebhookSubscription)$/.test(p) || p === "/_emulator/stats") return "GET";
  if (
    /\/(SubscribeToWebhook|UpdateWebhookSubscription|Unsubscribe)$/.test(p) ||
    /^\/_emulator\/(reset|events|tokens\/)/.test(p) ||
    p === "/oauth/token"
  )
    return "POST";
  if (/^\/_emulator\/(faults|rate-limit|work-items\/)/.test(p)) return "PUT";
  return undefined;
}
const pathAndMethod = path.chain((p) => {
  const expected = expectedMethod(p);
  return fc.tuple(
    fc.constant(p),
    expected ? fc.oneof({ arbitrary: fc.constant(expected), weight: 4 }, method) : method,
  );
});

/** Raw requests that no well-behaved client would send. */
const rawRequest = fc.oneof(
  fc.constantFrom(
    "GET /configuration/WebHookSubscription/GetAllWebhookSubscriptions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer dev-builder\r\n\r\n",
    'POST /configuration/WebHookSubscription/SubscribeToWebhook HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{"Webhook":3}',
    "POST /configuration/WebHookSubscription/SubscribeToWebhook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\nnot hex\r\n",
    "POST /configuration/WebHookSubscription/SubscribeToWebhook HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}{}{}",
    "GET / HTTP/9.9\r\n\r\n",
    "GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n",
    "BREW /coffee HTCPCP/1.0\r\n\r\n",
    "GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`,
    "\r\n\r\n\r\n",
    "GET /configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3 HTTP/1.0\r\nAuthorization: Bearer dev-builder\r\n\r\n",
  ),
  fc.string({ maxLength: 200 }).map((s) => `${s}\r\n\r\n`),
  fc
    .tuple(method, fc.string({ maxLength: 50 }), fc.string({ maxLength: 50 }))
    .map(([m, p, h]) => `${m} /${p} HTTP/1.1\r\nHost: x\r\n${h}\r\n\r\n`),
);

/** Writes `request` on a fresh connection; the status of the answer, or null if the server just closed it. */
function sendRaw(port: number, request: string): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    // A server that neither answers nor closes within this is caught by the status check (null is not enough).
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve(match ? Number(match[1]) : null);
    });
    socket.on("connect", () => socket.end(request, "latin1"));
  });
}

let directory: string;
let statePath: string;
let emulator: EmulatorHarness;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-surface-fuzz-"));
  statePath = join(directory, "state.json");
  emulator = await EmulatorHarness.start({ statePath, deliveryTimeoutMs: 500 });
});
afterAll(async () => {
  await emulator.close();
  await rm(directory, { recursive: true, force: true });
});

/** The stats answer (admin API: no auth, no rate limit): the server is alive and serving. */
async function stillAnswers(): Promise<void> {
  expect((await emulator.admin("GET", "/stats")).status).toBe(200);
}

describe(`the HTTP surface under random requests (FUZZ_SEED=${FUZZ_SEED})`, () => {
  const statuses = new Map<number, number>();
  const count = (status: number | null) => statuses.set(status ?? 0, (statuses.get(status ?? 0) ?? 0) + 1);

  it("answers every request below 500, with fetch", async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        pathAndMethod,
        query,
        authorization,
        contentType,
        body,
        async ([p, m], q, auth, type, payload) => {
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = auth;
          if (type !== undefined) headers["content-type"] = type;
          const withBody = payload !== undefined && m !== "GET" && m !== "HEAD";
          const response = await fetch(`${emulator.url}${p.startsWith("/") ? p : `/${p}`}${q}`, {
            method: m,
            headers,
            ...(withBody ? { body: payload } : {}),
          });
          await response.arrayBuffer();
          count(response.status);
          expect(response.status, `${m} ${p}${q}`.slice(0, 300)).toBeLessThan(500);
          if (++sent % 50 === 0) await stillAnswers();
        },
      ),
      { numRuns: 1000, seed: FUZZ_SEED },
    );
    await stillAnswers();
    // Not vacuous: a good share got past routing, auth and validation.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
  });

  it("answers malformed HTTP below 500 or closes the connection", async () => {
    await fc.assert(
      fc.asyncProperty(rawRequest, async (request) => {
        const status = await sendRaw(Number(new URL(emulator.url).port), request);
        count(status);
        if (status !== null) expect(status, JSON.stringify(request.slice(0, 120))).toBeLessThan(500);
      }),
      { numRuns: 150, seed: FUZZ_SEED },
    );
    await stillAnswers();
    console.log(
      `[fuzz-surface] statuses (0 = connection closed without an answer): ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
  });

  it("leaves a state file that loads into the same subscriptions", async () => {
    // Whatever the fuzz configured: no faults or rate limit in the way of reading back.
    await emulator.admin("DELETE", "/faults");
    await emulator.admin("PUT", "/rate-limit", null);
    // A token of its own: the fuzz may have expired the fixed Builder token.
    const list = async () =>
      (await emulator.config("GetAllWebhookSubscriptions", { auth: `Bearer ${await issueToken(emulator.url)}` })).json;
    // Make sure there is something to keep, whatever the fuzz left.
    expect(
      (
        await emulator.config("SubscribeToWebhook", {
          body: typeScopedBody({ SubscriberURL: "https://hooks.example.com/kept" }),
          auth: `Bearer ${await issueToken(emulator.url)}`,
        })
      ).status,
    ).toBe(200);
    const before = await list();
    await emulator.close();
    emulator = await EmulatorHarness.start({ statePath, deliveryTimeoutMs: 500 });
    expect(await list()).toEqual(before);
  });
});

/**
 * The error cases of the security review (issue 16), one row each: how the error comes about,
 * and the secrets it must not show in any view (message, stack, String, JSON, util.inspect,
 * toJSON, every own field, the cause chain). The errors are produced the way a user meets
 * them: through the client against a MockAgent instance where a response is involved.
 */
import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import {
  AmbiguousResultError,
  ConfigurationError,
  OAuthClientCredentials,
  REDACTED,
  ServerError,
  TransportError,
  UnexpectedResponseError,
  UnreadableRequestError,
  WebhookSubscriptionClient,
  errorFromResponse,
  resolveSettings,
  type ClientSettings,
  type ErrorContext,
  type SubscriptionSpec,
} from "../../provider/client";
import { clientSettings, readSettings } from "../../provider/core/settings";
import { leaksOf } from "../support/errorViews";
import { SUBSCRIPTION_GUID, mockInstance, wireSubscription, type MockReply } from "./mockInstance";

const TOKEN = "tok-9f8e7d6c5b4a39281706";
const HEADER_VALUE = "hv-Secret-Value-42";
const SIGNATURE = "5b0e7a1c-3d2f-4e6a-9b8c-7d6e5f4a3b2c";
const CLIENT_SECRET = "cs-0a1b2c3d4e5f";
const ISSUED = "issued-access-token-77";
const get: ErrorContext = { operation: "GetAllWebhookSubscriptions", apiVersion: "3", secrets: [TOKEN] };
const spec: SubscriptionSpec = {
  webhook: 0,
  filterObjectGuid: "11111111-2222-4333-8444-555555555555",
  filterObjectType: 2,
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X-Api-Key",
  customHeaderValue: HEADER_VALUE,
};

/** The error a promise rejects with (the row fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** Subscribe (with the header value) against an instance answering `reply`; the client's error. */
function subscribeAgainst(reply: MockReply, settings: Partial<ClientSettings> = {}): Promise<unknown> {
  const instance = mockInstance();
  instance.on("SubscribeToWebhook", reply);
  return rejection(instance.client({ token: TOKEN, ...settings }).subscribe(spec));
}

function listAgainst(...replies: MockReply[]): Promise<unknown> {
  const instance = mockInstance();
  instance.on("GetAllWebhookSubscriptions", ...replies);
  return rejection(instance.client({ token: TOKEN }).list());
}

/** A client whose OAuth token endpoint issues `ISSUED` (or answers `tokenReply`) and whose API answers `apiReply`. */
function oauthAgainst(apiReply: MockReply, tokenReply?: { status: number; text: string }): Promise<unknown> {
  const instance = mockInstance();
  instance.agent
    .get("http://idp.test")
    .intercept({ path: "/oauth/token", method: "POST" })
    .reply(tokenReply?.status ?? 200, tokenReply?.text ?? JSON.stringify({ access_token: ISSUED, expires_in: 3600 }))
    .persist();
  instance.on("GetAllWebhookSubscriptions", apiReply, apiReply);
  const client = instance.client({
    token: undefined,
    oauth: { clientId: "dev-client", clientSecret: CLIENT_SECRET, tokenUrl: "http://idp.test/oauth/token" },
  });
  return rejection(client.list());
}

const pad = (n: number) => "x".repeat(n);

/** A secret given as a number; its digits appear nowhere else in these errors. */
const NUMERIC_SECRET = 7350921864;

/** How a view could show a Buffer's bytes: `<Buffer 68 76 …>`, or the numbers of a copied array. */
function bytesOf(text: string): string[] {
  const bytes = [...Buffer.from(text)];
  return [bytes.map((b) => b.toString(16).padStart(2, "0")).join(" "), bytes.join(", ")];
}

/** The error of a call the client refuses before sending anything (the instance answers nothing). */
async function sentNothing(call: (client: WebhookSubscriptionClient) => Promise<unknown>): Promise<unknown> {
  const instance = mockInstance();
  const error = await rejection(call(instance.client({ token: TOKEN })));
  expect(instance.requests).toEqual([]);
  return error;
}

/** A 400 with one validation message, as the service words it. */
function validationFailure(description: string, parameters: unknown[]): MockReply {
  const message = {
    IsError: true,
    MessageDescription: description,
    Parameters: parameters,
    RelatedObjectType: 990,
    MessageID: 1005,
  };
  return { status: 400, json: { Result: null, Messages: [message] } };
}

interface Case {
  readonly name: string;
  readonly secrets: readonly string[];
  readonly error: () => unknown;
}

const cases: Case[] = [
  // Truncation before redaction
  {
    name: "token straddling the 300-character quote (plain body)",
    secrets: [TOKEN],
    error: () => errorFromResponse(get, 400, `${pad(290)}${TOKEN} tail`),
  },
  {
    name: "token straddling the 300-character quote (JSON Error)",
    secrets: [TOKEN],
    error: () => errorFromResponse(get, 400, JSON.stringify({ Error: `${pad(295)}${TOKEN}` })),
  },
  {
    name: "token straddling the 4096-character body",
    secrets: [TOKEN],
    error: () => errorFromResponse(get, 500, `${pad(4090)}${TOKEN}`),
  },
  {
    name: "header value straddling the 4096-character body",
    secrets: [HEADER_VALUE],
    error: () => subscribeAgainst({ status: 503, text: `${pad(4086)}${HEADER_VALUE}` }),
  },
  {
    name: "unknown Signature straddling 4096 in a JSON key position",
    secrets: [SIGNATURE],
    error: () => errorFromResponse(get, 500, `${pad(4080)}"Signature":"${SIGNATURE}"`),
  },
  {
    name: "a megabyte HTML page with the token at the start",
    secrets: [TOKEN],
    error: () => errorFromResponse(get, 502, `<html>${TOKEN}${pad(1_000_000)}</html>`),
  },
  // Key matching in any letter case
  {
    name: '"signature" (camelCase) in a body',
    secrets: [SIGNATURE],
    error: () => listAgainst({ status: 200, text: `{"broken": true, "signature":"${SIGNATURE}"}` }),
  },
  {
    name: '"SIGNATURE" (upper case) in a body',
    secrets: [SIGNATURE],
    error: () => listAgainst({ status: 200, text: `{"SIGNATURE":"${SIGNATURE}"` }),
  },
  {
    name: '"customHeaderValue" (camelCase) in a body',
    secrets: ["unknown-header-value"],
    error: () => listAgainst({ status: 200, text: '{"broken": true, "customHeaderValue":"unknown-header-value"}' }),
  },
  {
    name: '"CustomHeaderValue" of another subscription in a response that fails to decode',
    secrets: [SIGNATURE, "other-value"],
    error: () =>
      listAgainst({
        status: 200,
        json: {
          broken: true,
          entries: [
            wireSubscription({
              Signature: SIGNATURE,
              CustomHeader: "X",
              CustomHeaderValue: "other-value",
              SubscriberURL: 42 as unknown as string,
            }),
          ],
        },
      }),
  },
  {
    name: '"ACCESS_TOKEN" in a body',
    secrets: ["leaked-access"],
    error: () => errorFromResponse(get, 500, '{"ACCESS_TOKEN":"leaked-access"}'),
  },
  {
    name: '"Client_Secret" in a form body',
    secrets: ["leaked-secret"],
    error: () => errorFromResponse(get, 400, "client_id=a&Client_Secret=leaked-secret"),
  },
  {
    name: "a Signature repeated outside its key position",
    secrets: [SIGNATURE],
    error: () =>
      errorFromResponse(get, 400, JSON.stringify({ Signature: SIGNATURE, Error: `signature ${SIGNATURE} is wrong` })),
  },
  {
    name: "a Signature in upper case, known from a lower-case key position",
    secrets: [SIGNATURE],
    error: () =>
      errorFromResponse(
        get,
        400,
        JSON.stringify({ Signature: SIGNATURE, Error: `${SIGNATURE.toUpperCase()} refused` }),
      ),
  },
  {
    name: "a JSON body quoted inside a JSON string",
    secrets: [SIGNATURE],
    error: () => errorFromResponse(get, 400, JSON.stringify({ Error: JSON.stringify({ Signature: SIGNATURE }) })),
  },
  {
    name: "an x-service-signature header line echoed",
    secrets: [SIGNATURE],
    error: () => errorFromResponse(get, 500, `x-service-signature: ${SIGNATURE}\nrest`),
  },
  {
    name: "an Authorization header echoed",
    secrets: [TOKEN],
    error: () => errorFromResponse({ ...get, secrets: [] }, 401, `Authorization: Bearer ${TOKEN}`),
  },
  // Non-JSON bodies
  {
    name: "an XML body with <Signature> quoted into the message",
    secrets: [SIGNATURE],
    error: () => listAgainst({ status: 200, text: `<Result><Signature>${SIGNATURE}</Signature></Result>` }),
  },
  {
    name: "a plain-text 400 echoing the header value",
    secrets: [HEADER_VALUE],
    error: () => subscribeAgainst({ status: 400, text: `bad header value ${HEADER_VALUE}` }),
  },
  {
    name: "an HTML 502 page echoing the token",
    secrets: [TOKEN],
    error: () =>
      listAgainst(
        { status: 502, text: `<html><body>token ${TOKEN}</body></html>` },
        { status: 502, text: "<html></html>" },
        { status: 502, text: "<html></html>" },
        { status: 502, text: "<html></html>" },
      ),
  },
  {
    name: "a 403 body echoing the token",
    secrets: [TOKEN],
    error: () => listAgainst({ status: 403, text: `forbidden for ${TOKEN}` }),
  },
  {
    name: "a 404 body echoing the header value",
    secrets: [HEADER_VALUE],
    error: () => subscribeAgainst({ status: 404, text: `no ${HEADER_VALUE}` }),
  },
  {
    name: "a closed-packet 400 with the header value appended",
    secrets: [HEADER_VALUE],
    error: () =>
      subscribeAgainst({ status: 400, text: `Cannot create subscription for a closed packet. ${HEADER_VALUE}` }),
  },
  // ValidationFailedError.messages
  {
    name: "validation description naming the header value",
    secrets: [HEADER_VALUE],
    error: () => subscribeAgainst(validationFailure(`Value ${HEADER_VALUE} is invalid`, [])),
  },
  {
    name: "validation parameters holding the header value",
    secrets: [HEADER_VALUE],
    error: () => subscribeAgainst(validationFailure("Value {0} is invalid", [HEADER_VALUE, { nested: HEADER_VALUE }])),
  },
  {
    name: "validation parameters holding the token as a number",
    secrets: ["8675309"],
    error: () =>
      errorFromResponse(
        { ...get, secrets: ["8675309"] },
        400,
        JSON.stringify({
          Result: null,
          Messages: [
            { IsError: true, MessageDescription: "x", Parameters: [8675309], RelatedObjectType: 990, MessageID: 1 },
          ],
        }),
      ),
  },
  // Requests refused before sending (zod issues carry the input)
  {
    name: "a request refused by the wire schema, its input holding the header value",
    secrets: [HEADER_VALUE],
    error: () =>
      rejection(
        mockInstance()
          .client({ token: TOKEN })
          .subscribe({ ...spec, webhook: 99 as SubscriptionSpec["webhook"] }),
      ),
  },
  // OAuth
  {
    name: "OAuth: a 401 on the first call echoing the token just issued",
    secrets: [ISSUED, CLIENT_SECRET],
    error: () => oauthAgainst({ status: 401, text: `token ${ISSUED} expired` }),
  },
  {
    name: "OAuth: the token endpoint refusing, echoing the client secret",
    secrets: [CLIENT_SECRET],
    error: () => oauthAgainst({ status: 200, json: [] }, { status: 401, text: `bad secret ${CLIENT_SECRET}` }),
  },
  {
    name: "OAuth: a token response without expires_in number, echoing its token",
    secrets: [ISSUED, CLIENT_SECRET],
    error: () =>
      oauthAgainst(
        { status: 200, json: [] },
        { status: 200, text: JSON.stringify({ access_token: ISSUED, expires_in: "soon", note: `token ${ISSUED}` }) },
      ),
  },
  {
    name: "OAuth: the token endpoint failing with 500, echoing the form",
    secrets: [CLIENT_SECRET],
    error: () => oauthAgainst({ status: 200, json: [] }, { status: 500, text: `client_secret=${CLIENT_SECRET}` }),
  },
  // Short secrets
  {
    name: "a 2-character header value echoed as a value",
    secrets: ["k9"],
    error: () => errorFromResponse({ ...get, secrets: ["k9"] }, 400, 'value "k9" refused: k9'),
  },
  {
    name: "a 3-character token in a key position, unknown to the client",
    secrets: ["zq7"],
    error: () => errorFromResponse({ ...get, secrets: [] }, 400, "access_token=zq7"),
  },
  {
    name: "a 1-character signature in JSON",
    secrets: ["Q"],
    error: () => errorFromResponse({ ...get, secrets: [] }, 400, '{"Signature":"Q","Error":"Q is bad"}'),
  },
  // URLs in configuration errors
  {
    name: "a baseUrl with a query token (client settings)",
    secrets: ["url-token-1234"],
    error: () => thrown(() => resolveSettings({ baseUrl: "https://h.example.com/?token=url-token-1234" })),
  },
  {
    name: "a baseUrl with a query value of any name",
    secrets: ["qv-98765"],
    error: () => thrown(() => resolveSettings({ baseUrl: "https://h.example.com/x?sig=qv-98765#f" })),
  },
  {
    name: "a tokenUrl with userinfo that is not http(s)",
    secrets: ["p4ssw0rd-x"],
    error: () =>
      thrown(() =>
        resolveSettings({
          baseUrl: "https://h.example.com",
          oauth: {
            clientId: "c",
            clientSecret: "s3cret-value",
            tokenUrl: "ftp://user:p4ssw0rd-x@idp.example.com/token",
          },
        }),
      ),
  },
  {
    name: "a tokenUrl with userinfo in a token-endpoint error",
    secrets: ["p4ssw0rd-y", CLIENT_SECRET],
    error: async () => {
      const agent = new MockAgent();
      agent.disableNetConnect();
      agent.get("http://idp.test").intercept({ path: "/token", method: "POST" }).reply(400, "no");
      return rejection(
        Promise.resolve(
          new OAuthClientCredentials(
            { clientId: "c", clientSecret: CLIENT_SECRET, tokenUrl: "http://user:p4ssw0rd-y@idp.test/token" },
            { dispatcher: agent, timeoutMs: 1000 },
          ).authorization(get),
        ),
      );
    },
  },
  {
    name: "a stack setting with a baseUrl holding a query token",
    secrets: ["cfg-token-5555"],
    error: () =>
      thrown(
        () =>
          new WebhookSubscriptionClient(
            clientSettings(
              readSettings(undefined, {
                WEBHOOKS_BASE_URL: "https://h.example.com/?access=cfg-token-5555",
                WEBHOOKS_TOKEN: TOKEN,
              }).connection,
            ),
          ),
      ),
  },
  // Causes
  {
    name: "a transport error whose cause message holds the token",
    secrets: [TOKEN],
    error: () =>
      new TransportError({
        ...get,
        cause: Object.assign(new Error(`reset while sending Bearer ${TOKEN}`), { code: "ECONNRESET", header: TOKEN }),
        networkCode: "ECONNRESET",
        detail: "reset",
      }),
  },
  {
    name: "an AggregateError cause chain holding the header value",
    secrets: [HEADER_VALUE],
    error: () =>
      new TransportError({
        ...get,
        secrets: [HEADER_VALUE],
        cause: new AggregateError([new Error(HEADER_VALUE)], "failed", { cause: new Error(`deep ${HEADER_VALUE}`) }),
        networkCode: "ECONNREFUSED",
        detail: "refused",
      }),
  },
  {
    name: "an ambiguous Subscribe whose 503 body echoes the header value and a Signature",
    secrets: [HEADER_VALUE, SIGNATURE],
    error: () => subscribeAgainst({ status: 503, text: `{"Signature":"${SIGNATURE}","v":"${HEADER_VALUE}"}` }),
  },
  {
    name: "an ambiguous result built directly around a ServerError",
    secrets: [SIGNATURE],
    error: () =>
      new AmbiguousResultError({
        operation: "UpdateWebhookSubscription",
        apiVersion: "3",
        cause: new ServerError({
          operation: "UpdateWebhookSubscription",
          status: 500,
          body: `"signature": "${SIGNATURE}" and ${SIGNATURE}`,
        }),
      }),
  },
  {
    name: "an unexpected response built directly with a known secret in detail",
    secrets: [TOKEN],
    error: () => new UnexpectedResponseError({ ...get, status: 200, body: "x", detail: `the body repeated ${TOKEN}` }),
  },
  {
    name: "a configuration error whose shown value is a secret-looking URL",
    secrets: ["abcd-secret-9"],
    error: () => new ConfigurationError("baseUrl", "is wrong", '"https://u:abcd-secret-9@h/"'),
  },
  // Secret-bearing fields that are not strings (a program's bug): refused before sending, never shown
  {
    name: "a customHeaderValue that is an array holding the secret",
    secrets: [HEADER_VALUE],
    error: () => sentNothing((client) => client.subscribe({ ...spec, customHeaderValue: [HEADER_VALUE] as never })),
  },
  {
    name: "a customHeaderValue that is a nested object holding the secret (Update)",
    secrets: [HEADER_VALUE],
    error: () =>
      sentNothing((client) =>
        client.update(SUBSCRIPTION_GUID, { ...spec, customHeaderValue: { v: { deeper: [HEADER_VALUE] } } as never }),
      ),
  },
  {
    name: "a customHeaderValue that is a number",
    secrets: [String(NUMERIC_SECRET)],
    error: () => sentNothing((client) => client.subscribe({ ...spec, customHeaderValue: NUMERIC_SECRET as never })),
  },
  {
    name: "a customHeaderValue that is a Buffer (its text and its bytes)",
    secrets: [HEADER_VALUE, ...bytesOf(HEADER_VALUE)],
    error: () =>
      sentNothing((client) => client.subscribe({ ...spec, customHeaderValue: Buffer.from(HEADER_VALUE) as never })),
  },
  {
    name: "a token that is an array holding the secret",
    secrets: [TOKEN],
    error: () =>
      thrown(() => new WebhookSubscriptionClient({ baseUrl: "https://h.example.com", token: [TOKEN] as never })),
  },
  {
    name: "an OAuth client secret that is an object holding the secret",
    secrets: [CLIENT_SECRET],
    error: () =>
      thrown(
        () =>
          new WebhookSubscriptionClient({
            baseUrl: "https://h.example.com",
            oauth: {
              clientId: "c",
              clientSecret: { value: CLIENT_SECRET } as never,
              tokenUrl: "https://idp.example.com/t",
            },
          }),
      ),
  },
];

describe("a customHeaderValue of the wrong type: the request is refused and its issue keeps no input", () => {
  const values: [string, unknown][] = [
    ["an array", [HEADER_VALUE]],
    ["a nested object", { v: { deeper: [HEADER_VALUE] } }],
    ["a number", NUMERIC_SECRET],
    ["a Buffer", Buffer.from(HEADER_VALUE)],
    ["a boolean", true],
  ];

  it.each(values)("%s", async (_kind, value) => {
    const error = await sentNothing((client) => client.subscribe({ ...spec, customHeaderValue: value as never }));
    expect(error).toBeInstanceOf(UnreadableRequestError);
    const { issues, sent } = error as UnreadableRequestError;
    expect(sent).toBe(false);
    expect(issues?.map(({ path, input }) => ({ path, input }))).toEqual([
      { path: ["CustomHeaderValue"], input: REDACTED },
    ]);
  });
});

describe("the review's error cases leak no secret in any view", () => {
  it.each(cases)("$name", async ({ error, secrets }) => {
    const err = await error();
    expect(err).toBeInstanceOf(Error);
    expect(leaksOf(err, secrets)).toEqual([]);
  });

  it(`covers ${cases.length} cases`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(41);
  });
});

/**
 * Property: whatever a response body holds, no view of any error shows a secret. Bodies are
 * generated around generated secrets (tokens, header values, Signatures) of 1 to 40
 * characters: repeated raw, in other letter case, in secret-key positions of every syntax
 * (key names in any case), inside URLs, straddling the old cut points (a 300-character quote,
 * a 4096-character body), as JSON, plain text, XML/HTML and validation envelopes.
 * And whatever the client is given as a secret field: a customHeaderValue of any type (an
 * array, a nested object, a number, a Buffer) holding a generated secret.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AmbiguousResultError,
  ErrorCode,
  REDACTED,
  TransportError,
  UnexpectedResponseError,
  errorFromResponse,
  type SubscriptionSpec,
  type WebhookApiError,
} from "../../provider/client";
import { OPERATIONS, type Operation } from "../../provider/wire";
import { leaksOf, shows } from "../support/errorViews";
import { FUZZ_SEED } from "../support/fuzzSeed";
import { SUBSCRIPTION_GUID, WORK_ITEM_GUID, mockInstance } from "./mockInstance";

/** Characters of secrets: what tokens, GUIDs and header values are made of. No quote or backslash (JSON-escaped differently). */
const SECRET_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.~+/=!$%*()@:,;"];
/** Filler around the secrets; "_" and " " are word boundaries for short secrets. */
const FILLER_CHARS = [..."abcdefghijklmnopqrstuvwxyz ABC0123456789_{}[]<>=&?:,.\"'/\\-"];

/** Text our own errors show whatever the body: class names, codes, operations, property names, numbers. */
const FIXED_VOCABULARY = [
  ...Object.values(ErrorCode),
  ...OPERATIONS,
  "WebhookApiError UnauthorizedError ForbiddenError NotFoundError ValidationFailedError ClosedWorkItemError",
  "UnreadableRequestError VersionCannotRepresentError RateLimitedError TransportError ServerError",
  "UnexpectedResponseError AmbiguousResultError Error AggregateError Object Array",
  "name code message operation apiVersion status guid body attempts reason messages issues sent networkCode",
  "description parameters messageId relatedObjectGuid relatedObjectType isError cause errors stack path input expected",
  "length received origin format pattern values null undefined true false [cause] [Array] [Object] [errors] NaN Infinity",
  "0 1 2 3 4 5 6 7 8 9 200 400 401 403 404 409 429 500 503 990 1005 ECONNRESET",
  REDACTED,
].join(" ");

const secretArb = fc
  .string({ unit: fc.constantFrom(...SECRET_CHARS), minLength: 1, maxLength: 40 })
  // A secret made of punctuation only, or one our own fixed text shows, cannot be told from structure.
  .filter((s) => /[A-Za-z0-9]/.test(s) && !shows(FIXED_VOCABULARY, s));

const filler = (max: number) => fc.string({ unit: fc.constantFrom(...FILLER_CHARS), maxLength: max });

const KEYS = [
  "signature",
  "Signature",
  "SIGNATURE",
  "customHeaderValue",
  "CustomHeaderValue",
  "access_token",
  "ACCESS_TOKEN",
  "client_secret",
  "Client_Secret",
  "x-service-signature",
];

type Form = "raw" | "upper" | "lower" | "json" | "form" | "xml" | "header" | "bearer" | "url";
const FORMS: Form[] = ["raw", "upper", "lower", "json", "form", "xml", "header", "bearer", "url"];

function render(secret: string, form: Form, key: string): string {
  switch (form) {
    case "raw":
      return secret;
    case "upper":
      return secret.toUpperCase();
    case "lower":
      return secret.toLowerCase();
    case "json":
      return `"${key}":"${secret}"`;
    case "form":
      return `${key}=${secret}`;
    case "xml":
      return `<${key}>${secret}</${key}>`;
    case "header":
      return `${key}: ${secret}`;
    case "bearer":
      return `Bearer ${secret}`;
    case "url":
      return `https://user:${secret}@host.test/path?k=${secret}`;
  }
}

/** One mention of secret number `index`, or filler. */
const pieceArb = fc.oneof(
  filler(30).map((text) => ({ text })),
  fc.record({ index: fc.nat(3), form: fc.constantFrom(...FORMS), key: fc.constantFrom(...KEYS) }),
);

type Piece = { text: string } | { index: number; form: Form; key: string };

type BodyKind = "plain" | "json-error" | "validation" | "xml" | "subscription";

const scenarioArb = fc.record({
  secrets: fc.array(secretArb, { minLength: 1, maxLength: 4 }),
  pieces: fc.array(pieceArb, { maxLength: 12 }),
  kind: fc.constantFrom<BodyKind[]>("plain", "json-error", "validation", "xml", "subscription"),
  // Place secret 0 across a cut: 300 (the quote) or 4096 (the stored body), `shift` characters before it.
  straddle: fc.option(fc.record({ cut: fc.constantFrom(300, 4096), shift: fc.nat(40) }), { nil: undefined }),
  status: fc.constantFrom(200, 400, 401, 403, 404, 409, 429, 500, 503),
  operation: fc.constantFrom<Operation[]>(...OPERATIONS),
  // How the error is built: the factory, a decode failure, a transport failure, an ambiguous result.
  build: fc.constantFrom("response", "unexpected", "transport", "ambiguous"),
  // Which secrets the client knows (the rest reach the body only in a secret-key position).
  knownCount: fc.integer({ min: 0, max: 4 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(s: Scenario): string {
  const mention = (p: Piece) => ("text" in p ? p.text : render(s.secrets[p.index % s.secrets.length]!, p.form, p.key));
  let text = s.pieces.map(mention).join(" ");
  if (s.straddle) {
    const secret = s.secrets[0]!;
    const shift = Math.min(s.straddle.shift, secret.length);
    text = `${"_".repeat(s.straddle.cut - shift)}${secret} ${text}`;
  }
  const first = s.secrets[0]!;
  switch (s.kind) {
    case "plain":
      return text.replace(/\n/g, " ");
    case "json-error":
      return JSON.stringify({ Error: text });
    case "validation":
      return JSON.stringify({
        Result: null,
        Messages: [
          {
            IsError: true,
            MessageDescription: text,
            Parameters: [first, text.slice(0, 50)],
            RelatedObjectGUID: "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b",
            RelatedObjectType: 990,
            MessageID: 1005,
          },
        ],
      });
    case "xml":
      return `<Result><Signature>${first}</Signature><Text>${text}</Text></Result>`;
    case "subscription":
      return JSON.stringify([{ GUID: "a", Signature: first, CustomHeaderValue: s.secrets[1] ?? first, Note: text }]);
  }
}

/** Whether secret `index` reaches the client's knowledge or the body's secret-key positions. */
function isDiscoverable(s: Scenario, index: number): boolean {
  if (index < s.knownCount) return true;
  if ((s.kind === "xml" || s.kind === "subscription") && index === 0) return true;
  if (s.kind === "subscription" && index === 1) return true;
  return s.pieces.some(
    (p) => "index" in p && p.index % s.secrets.length === index && !["raw", "upper", "lower"].includes(p.form),
  );
}

function errorOf(s: Scenario, body: string): WebhookApiError {
  const context = {
    operation: s.operation,
    apiVersion: "3" as const,
    guid: "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    secrets: s.secrets.slice(0, s.knownCount),
  };
  switch (s.build) {
    case "response":
      return errorFromResponse(context, s.status, body);
    case "unexpected":
      return new UnexpectedResponseError({ ...context, status: s.status, body, detail: "the response is not JSON" });
    case "transport": {
      const inner = Object.assign(new Error(`socket closed: ${body.slice(0, 5000)}`), {
        code: "ECONNRESET",
        echo: body,
      });
      const cause = new AggregateError([inner], `connect failed ${body.slice(0, 100)}`, { cause: inner });
      return new TransportError({
        ...context,
        body,
        cause,
        networkCode: "ECONNRESET",
        detail: "the connection was reset",
      });
    }
    default:
      return new AmbiguousResultError({ ...context, cause: errorFromResponse(context, 503, body) });
  }
}

describe("no view of any error shows a secret (property)", () => {
  it(`holds for generated bodies, secrets, statuses and ways of building the error (FUZZ_SEED=${FUZZ_SEED})`, () => {
    let cases = 0;
    let checkedSecrets = 0;
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const body = bodyOf(s);
        const error = errorOf(s, body);
        // A secret the client does not know and the body shows only as bare text is not recognisable as one.
        const secrets = s.secrets.filter((_, index) => isDiscoverable(s, index));
        cases += 1;
        checkedSecrets += secrets.length;
        expect(leaksOf(error, secrets)).toEqual([]);
      }),
      { numRuns: 1000, seed: FUZZ_SEED },
    );
    expect(cases).toBe(1000);
    console.log(`leak property: ${cases} errors, ${checkedSecrets} secrets checked in 8 views each, 0 leaks`);
  });
});

/** A secret as a program might wrongly pass it: the value it holds, and the secret texts to look for. */
const wrongTypeArb = fc.oneof(
  fc.tuple(secretArb, fc.array(filler(10), { maxLength: 3 }), fc.nat()).map(([secret, others, at]) => ({
    value: [...others.slice(0, at % (others.length + 1)), secret, ...others.slice(at % (others.length + 1))],
    secret,
  })),
  fc
    .tuple(secretArb, fc.string({ unit: fc.constantFrom(..."abcdefgh"), minLength: 1, maxLength: 8 }))
    .map(([secret, key]) => ({ value: { [key]: { inner: [secret] } }, secret })),
  fc
    .integer({ min: 1000, max: Number.MAX_SAFE_INTEGER })
    .filter((n) => !shows(`${FIXED_VOCABULARY} ${SUBSCRIPTION_GUID} ${WORK_ITEM_GUID}`, String(n)))
    .map((n) => ({ value: n, secret: String(n) })),
  secretArb.map((secret) => ({ value: Buffer.from(secret), secret })),
);

describe("no view of any error shows a secret field given the wrong type (property)", () => {
  it(`holds for customHeaderValue as an array, a nested object, a number or a Buffer (FUZZ_SEED=${FUZZ_SEED})`, async () => {
    // Nothing is sent: the client refuses a body the service could not read.
    const instance = mockInstance();
    const client = instance.client({ token: "tok-9f8e7d6c5b4a39281706" });
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(wrongTypeArb, fc.boolean(), async ({ value, secret }, update) => {
        const spec: SubscriptionSpec = {
          webhook: 0,
          filterObjectGuid: WORK_ITEM_GUID,
          filterObjectType: 2,
          subscriberUrl: "https://hooks.example.com/orders",
          customHeader: "X-Api-Key",
          customHeaderValue: value as never,
        };
        const call = update ? client.update(SUBSCRIPTION_GUID, spec) : client.subscribe(spec);
        const error = await call.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toMatchObject({ code: ErrorCode.UnreadableRequest });
        expect(leaksOf(error, [secret])).toEqual([]);
        cases += 1;
      }),
      { numRuns: 500, seed: FUZZ_SEED },
    );
    expect(instance.requests).toEqual([]);
    expect(cases).toBe(500);
  });
});

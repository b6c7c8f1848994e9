/**
 * The bad-input matrix: each case is raw WebhookSubscription arguments, the one field that must
 * fail and what its message must say. Used by check's unit tests and, through the engine, by the
 * end-to-end bad-input test.
 */
export const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
export const SECRET = "s3cr3t-header-value";

/** A valid object-scoped subscription; each case overrides some fields. */
export function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    webhook: 0,
    filterObjectType: 2,
    filterObjectGuid: GUID,
    subscriberUrl: "https://hooks.example.com/x",
    ...overrides,
  };
}
export const typeScoped = (overrides: Record<string, unknown> = {}) =>
  valid({ webhook: 3, filterObjectGuid: undefined, ...overrides });

/** [description, raw inputs, field that must fail, text the message must contain] */
export const BAD_INPUTS: ReadonlyArray<readonly [string, Record<string, unknown>, string, RegExp]> = [
  ["webhook missing", valid({ webhook: undefined }), "webhook", /webhook is required: one of "PacketCreated"/],
  ["webhook null", valid({ webhook: null }), "webhook", /webhook is required/],
  [
    "webhook unknown name",
    valid({ webhook: "PacketDeleted" }),
    "webhook",
    /webhook "PacketDeleted" is not a known event/,
  ],
  ["webhook wrong case", valid({ webhook: "packetcreated" }), "webhook", /did you mean "PacketCreated"\?/],
  ["webhook out of range", valid({ webhook: 6 }), "webhook", /webhook 6 is not a known event; use one of/],
  ["webhook negative", valid({ webhook: -1 }), "webhook", /webhook -1 is not a known event/],
  ["webhook fractional", valid({ webhook: 1.5 }), "webhook", /webhook 1.5 is not a known event/],
  ["webhook boolean", valid({ webhook: true }), "webhook", /webhook true is not a known event/],
  ["webhook object", valid({ webhook: { name: "PacketCreated" } }), "webhook", /is not a known event/],
  ["webhook empty string", valid({ webhook: "" }), "webhook", /webhook "" is not a known event/],
  [
    "filterObjectType missing",
    valid({ filterObjectType: undefined }),
    "filterObjectType",
    /filterObjectType is required/,
  ],
  [
    "filterObjectType string",
    valid({ filterObjectType: "2" }),
    "filterObjectType",
    /must be a non-negative integer .* got: "2"/,
  ],
  ["filterObjectType negative", valid({ filterObjectType: -3 }), "filterObjectType", /got: -3/],
  ["filterObjectType fractional", valid({ filterObjectType: 2.5 }), "filterObjectType", /got: 2.5/],
  ["filterObjectType NaN-ish", valid({ filterObjectType: "abc" }), "filterObjectType", /got: "abc"/],
  [
    "filterObjectGuid missing for PacketCreated",
    valid({ filterObjectGuid: undefined }),
    "filterObjectGuid",
    /required for PacketCreated/,
  ],
  [
    "filterObjectGuid missing for PacketUpdated",
    valid({ webhook: 1, filterObjectGuid: undefined }),
    "filterObjectGuid",
    /required for PacketUpdated/,
  ],
  [
    "filterObjectGuid missing for NewCommunication",
    valid({ webhook: 2, filterObjectGuid: "" }),
    "filterObjectGuid",
    /required for NewCommunication/,
  ],
  [
    "filterObjectGuid missing for SpecificBusinessObjectUpdated",
    valid({ webhook: "SpecificBusinessObjectUpdated", filterObjectGuid: null }),
    "filterObjectGuid",
    /required for SpecificBusinessObjectUpdated/,
  ],
  [
    "filterObjectGuid all-zero (no filter) for PacketCreated",
    valid({ filterObjectGuid: "00000000-0000-0000-0000-000000000000" }),
    "filterObjectGuid",
    /required for PacketCreated/,
  ],
  [
    "filterObjectGuid for BusinessObjectCreated",
    typeScoped({ filterObjectGuid: GUID }),
    "filterObjectGuid",
    /not used for BusinessObjectCreated, which is type-scoped.*Remove it/,
  ],
  [
    "filterObjectGuid for BusinessObjectTypeUpdated",
    typeScoped({ webhook: 5, filterObjectGuid: GUID }),
    "filterObjectGuid",
    /not used for BusinessObjectTypeUpdated/,
  ],
  [
    "filterObjectGuid malformed",
    valid({ filterObjectGuid: "not-a-guid" }),
    "filterObjectGuid",
    /must be a GUID like .* got: "not-a-guid"/,
  ],
  [
    "filterObjectGuid too short",
    valid({ filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4" }),
    "filterObjectGuid",
    /must be a GUID/,
  ],
  ["filterObjectGuid braces", valid({ filterObjectGuid: `{${GUID}}` }), "filterObjectGuid", /must be a GUID/],
  ["filterObjectGuid number", valid({ filterObjectGuid: 42 }), "filterObjectGuid", /got: 42/],
  [
    "subscriberUrl missing",
    valid({ subscriberUrl: undefined }),
    "subscriberUrl",
    /subscriberUrl is required: the absolute http\(s\) URL/,
  ],
  ["subscriberUrl empty", valid({ subscriberUrl: "" }), "subscriberUrl", /subscriberUrl is required/],
  [
    "subscriberUrl relative",
    valid({ subscriberUrl: "/hooks/x" }),
    "subscriberUrl",
    /absolute http\(s\) URL, got: "\/hooks\/x". Include the scheme and host/,
  ],
  [
    "subscriberUrl no scheme",
    valid({ subscriberUrl: "hooks.example.com/x" }),
    "subscriberUrl",
    /got: "hooks.example.com\/x"/,
  ],
  [
    "subscriberUrl ftp",
    valid({ subscriberUrl: "ftp://x.example.com/a" }),
    "subscriberUrl",
    /got: "ftp:\/\/x.example.com\/a" \(scheme ftp\)/,
  ],
  ["subscriberUrl mailto", valid({ subscriberUrl: "mailto:ops@example.com" }), "subscriberUrl", /scheme mailto/],
  ["subscriberUrl javascript", valid({ subscriberUrl: "javascript:alert(1)" }), "subscriberUrl", /scheme javascript/],
  [
    "subscriberUrl with space",
    valid({ subscriberUrl: "https://hooks.example.com/a b" }),
    "subscriberUrl",
    /must not contain spaces/,
  ],
  [
    "subscriberUrl with newline",
    valid({ subscriberUrl: "https://hooks.example.com/a\nb" }),
    "subscriberUrl",
    /must not contain spaces or line breaks/,
  ],
  [
    "subscriberUrl with credentials",
    valid({ subscriberUrl: "https://user:pw@hooks.example.com/a" }),
    "subscriberUrl",
    /must not embed credentials/,
  ],
  ["subscriberUrl number", valid({ subscriberUrl: 8080 }), "subscriberUrl", /must be a string, got: 8080/],
  ["subscriberUrl http without host", valid({ subscriberUrl: "http://" }), "subscriberUrl", /absolute http\(s\) URL/],
  [
    "subscriberUrl scheme without slashes",
    valid({ subscriberUrl: "http:hooks.example.com/x" }),
    "subscriberUrl",
    /absolute http\(s\) URL, got: "http:hooks.example.com\/x"/,
  ],
  [
    "subscriberUrl scheme with one slash",
    valid({ subscriberUrl: "https:/hooks.example.com" }),
    "subscriberUrl",
    /absolute http\(s\) URL/,
  ],
  ["customHeader Host", valid({ customHeader: "Host" }), "customHeader", /sets Host from the subscriber URL/],
  [
    "customHeader with leading, trailing and repeated spaces",
    valid({ customHeader: " X  Api Key " }),
    "customHeader",
    /customHeader has leading, trailing or repeated spaces, got: " X {2}Api Key ", which the service would save as "-X--Api-Key-"\. Write "X Api Key" instead \(saved as "X-Api-Key"\)/,
  ],
  ["customHeader with a trailing space", valid({ customHeader: "X-Key " }), "customHeader", /Write "X-Key" instead/],
  [
    "customHeader of spaces only",
    valid({ customHeader: "   " }),
    "customHeader",
    /would save as "---"\. Write the header name, e\.g\. "X Api Key"/,
  ],
  [
    "customHeader Transfer-Encoding",
    valid({ customHeader: "transfer encoding" }),
    "customHeader",
    /must not replace a header the service sets itself \(the HTTP client frames the message body itself\)/,
  ],
  [
    "customHeader with colon",
    valid({ customHeader: "X-Key:" }),
    "customHeader",
    /valid HTTP header name .* got: "X-Key:"/,
  ],
  [
    "customHeader with newline",
    valid({ customHeader: "X-Key\r\nInjected: 1" }),
    "customHeader",
    /valid HTTP header name/,
  ],
  ["customHeader non-ASCII", valid({ customHeader: "X-Schlüssel" }), "customHeader", /valid HTTP header name/],
  ["customHeader number", valid({ customHeader: 7 }), "customHeader", /must be a string .* got: 7/],
  [
    "customHeader is the signature header",
    valid({ customHeader: "x-service-signature" }),
    "customHeader",
    /must not replace a header the service sets itself/,
  ],
  ["customHeader content-type", valid({ customHeader: "Content Type" }), "customHeader", /must not replace a header/],
  [
    "customHeaderValue without customHeader",
    valid({ customHeaderValue: SECRET }),
    "customHeaderValue",
    /customHeaderValue is set but customHeader is not/,
  ],
  [
    "customHeaderValue with newline",
    valid({ customHeader: "X-Key", customHeaderValue: `${SECRET}\r\nX-Evil: 1` }),
    "customHeaderValue",
    /must not contain line breaks/,
  ],
  [
    "customHeaderValue with a control character",
    valid({ customHeader: "X-Key", customHeaderValue: `${SECRET}\u0007` }),
    "customHeaderValue",
    /contains a control character/,
  ],
  [
    "customHeaderValue number",
    valid({ customHeader: "X-Key", customHeaderValue: 12345 }),
    "customHeaderValue",
    /must be a string, got a number/,
  ],
  [
    "adoptGuid malformed",
    valid({ adoptGuid: "abc" }),
    "adoptGuid",
    /adoptGuid must be the GUID of an existing subscription .* got: "abc"/,
  ],
  [
    "unknown argument",
    valid({ subscriberURL: "https://x.example.com" }),
    "subscriberURL",
    /is not a WebhookSubscription argument. Known arguments: webhook/,
  ],
  ["unknown argument signature", valid({ signature: "mine" }), "signature", /is not a WebhookSubscription argument/],
];

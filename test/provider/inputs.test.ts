/**
 * check: every bad input gets one clear failure on the right field, showing the bad value
 * (never a secret's) and what to do; good inputs are normalised to what the service returns.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN, checkInputs } from "../../provider/resource/inputs";

const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
const SECRET = "s3cr3t-header-value";

/** A valid object-scoped subscription; each case overrides some fields. */
function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { webhook: 0, filterObjectType: 2, filterObjectGuid: GUID, subscriberUrl: "https://hooks.example.com/x", ...overrides };
}
const typeScoped = (overrides: Record<string, unknown> = {}) => valid({ webhook: 3, filterObjectGuid: undefined, ...overrides });

/** [description, raw inputs, field that must fail, text the message must contain] */
export const BAD_INPUTS: ReadonlyArray<readonly [string, Record<string, unknown>, string, RegExp]> = [
  ["webhook missing", valid({ webhook: undefined }), "webhook", /webhook is required: one of "PacketCreated"/],
  ["webhook null", valid({ webhook: null }), "webhook", /webhook is required/],
  ["webhook unknown name", valid({ webhook: "PacketDeleted" }), "webhook", /webhook "PacketDeleted" is not a known event/],
  ["webhook wrong case", valid({ webhook: "packetcreated" }), "webhook", /did you mean "PacketCreated"\?/],
  ["webhook out of range", valid({ webhook: 6 }), "webhook", /webhook 6 is not a known event; use one of/],
  ["webhook negative", valid({ webhook: -1 }), "webhook", /webhook -1 is not a known event/],
  ["webhook fractional", valid({ webhook: 1.5 }), "webhook", /webhook 1.5 is not a known event/],
  ["webhook boolean", valid({ webhook: true }), "webhook", /webhook true is not a known event/],
  ["webhook object", valid({ webhook: { name: "PacketCreated" } }), "webhook", /is not a known event/],
  ["webhook empty string", valid({ webhook: "" }), "webhook", /webhook "" is not a known event/],
  ["filterObjectType missing", valid({ filterObjectType: undefined }), "filterObjectType", /filterObjectType is required/],
  ["filterObjectType string", valid({ filterObjectType: "2" }), "filterObjectType", /must be a non-negative integer .* got: "2"/],
  ["filterObjectType negative", valid({ filterObjectType: -3 }), "filterObjectType", /got: -3/],
  ["filterObjectType fractional", valid({ filterObjectType: 2.5 }), "filterObjectType", /got: 2.5/],
  ["filterObjectType NaN-ish", valid({ filterObjectType: "abc" }), "filterObjectType", /got: "abc"/],
  ["filterObjectGuid missing for PacketCreated", valid({ filterObjectGuid: undefined }), "filterObjectGuid", /required for PacketCreated/],
  ["filterObjectGuid missing for PacketUpdated", valid({ webhook: 1, filterObjectGuid: undefined }), "filterObjectGuid", /required for PacketUpdated/],
  ["filterObjectGuid missing for NewCommunication", valid({ webhook: 2, filterObjectGuid: "" }), "filterObjectGuid", /required for NewCommunication/],
  ["filterObjectGuid missing for SpecificBusinessObjectUpdated", valid({ webhook: "SpecificBusinessObjectUpdated", filterObjectGuid: null }), "filterObjectGuid", /required for SpecificBusinessObjectUpdated/],
  ["filterObjectGuid for BusinessObjectCreated", typeScoped({ filterObjectGuid: GUID }), "filterObjectGuid", /not used for BusinessObjectCreated, which is type-scoped.*Remove it/],
  ["filterObjectGuid for BusinessObjectTypeUpdated", typeScoped({ webhook: 5, filterObjectGuid: GUID }), "filterObjectGuid", /not used for BusinessObjectTypeUpdated/],
  ["filterObjectGuid malformed", valid({ filterObjectGuid: "not-a-guid" }), "filterObjectGuid", /must be a GUID like .* got: "not-a-guid"/],
  ["filterObjectGuid too short", valid({ filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4" }), "filterObjectGuid", /must be a GUID/],
  ["filterObjectGuid braces", valid({ filterObjectGuid: `{${GUID}}` }), "filterObjectGuid", /must be a GUID/],
  ["filterObjectGuid number", valid({ filterObjectGuid: 42 }), "filterObjectGuid", /got: 42/],
  ["subscriberUrl missing", valid({ subscriberUrl: undefined }), "subscriberUrl", /subscriberUrl is required: the absolute http\(s\) URL/],
  ["subscriberUrl empty", valid({ subscriberUrl: "" }), "subscriberUrl", /subscriberUrl is required/],
  ["subscriberUrl relative", valid({ subscriberUrl: "/hooks/x" }), "subscriberUrl", /absolute http\(s\) URL, got: "\/hooks\/x". Include the scheme and host/],
  ["subscriberUrl no scheme", valid({ subscriberUrl: "hooks.example.com/x" }), "subscriberUrl", /got: "hooks.example.com\/x"/],
  ["subscriberUrl ftp", valid({ subscriberUrl: "ftp://x.example.com/a" }), "subscriberUrl", /got: "ftp:\/\/x.example.com\/a" \(scheme ftp\)/],
  ["subscriberUrl mailto", valid({ subscriberUrl: "mailto:ops@example.com" }), "subscriberUrl", /scheme mailto/],
  ["subscriberUrl javascript", valid({ subscriberUrl: "javascript:alert(1)" }), "subscriberUrl", /scheme javascript/],
  ["subscriberUrl with space", valid({ subscriberUrl: "https://hooks.example.com/a b" }), "subscriberUrl", /must not contain spaces/],
  ["subscriberUrl with newline", valid({ subscriberUrl: "https://hooks.example.com/a\nb" }), "subscriberUrl", /must not contain spaces or line breaks/],
  ["subscriberUrl with credentials", valid({ subscriberUrl: "https://user:pw@hooks.example.com/a" }), "subscriberUrl", /must not embed credentials/],
  ["subscriberUrl number", valid({ subscriberUrl: 8080 }), "subscriberUrl", /must be a string, got: 8080/],
  ["subscriberUrl http without host", valid({ subscriberUrl: "http://" }), "subscriberUrl", /absolute http\(s\) URL/],
  ["customHeader with colon", valid({ customHeader: "X-Key:" }), "customHeader", /valid HTTP header name .* got: "X-Key:"/],
  ["customHeader with newline", valid({ customHeader: "X-Key\r\nInjected: 1" }), "customHeader", /valid HTTP header name/],
  ["customHeader non-ASCII", valid({ customHeader: "X-Schlüssel" }), "customHeader", /valid HTTP header name/],
  ["customHeader number", valid({ customHeader: 7 }), "customHeader", /must be a string .* got: 7/],
  ["customHeader is the signature header", valid({ customHeader: "x-service-signature" }), "customHeader", /must not replace a header the service sets itself/],
  ["customHeader content-type", valid({ customHeader: "Content Type" }), "customHeader", /must not replace a header/],
  ["customHeaderValue without customHeader", valid({ customHeaderValue: SECRET }), "customHeaderValue", /customHeaderValue is set but customHeader is not/],
  ["customHeaderValue with newline", valid({ customHeader: "X-Key", customHeaderValue: `${SECRET}\r\nX-Evil: 1` }), "customHeaderValue", /must not contain line breaks/],
  ["customHeaderValue number", valid({ customHeader: "X-Key", customHeaderValue: 12345 }), "customHeaderValue", /must be a string, got a number/],
  ["adoptGuid malformed", valid({ adoptGuid: "abc" }), "adoptGuid", /adoptGuid must be the GUID of an existing subscription .* got: "abc"/],
  ["unknown argument", valid({ subscriberURL: "https://x.example.com" }), "subscriberURL", /is not a WebhookSubscription argument. Known arguments: webhook/],
  ["unknown argument signature", valid({ signature: "mine" }), "signature", /is not a WebhookSubscription argument/],
];

describe("check rejects bad input per field", () => {
  it("has a matrix of at least 40 cases", () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(BAD_INPUTS)("%s", (_name, raw, field, message) => {
    const { failures } = checkInputs(raw);
    expect(failures.map((f) => f.property)).toEqual([field]);
    expect(failures[0]!.reason).toMatch(message);
    // A secret never appears in a message, whatever went wrong.
    expect(JSON.stringify(failures)).not.toContain(SECRET);
  });
});

describe("check normalises good input", () => {
  it("turns names into integers, header spaces into hyphens and GUIDs to lower case", () => {
    const { inputs, failures } = checkInputs(valid({ webhook: "NewCommunication", filterObjectGuid: GUID.toUpperCase(), customHeader: "X Api Key", customHeaderValue: SECRET }));
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ webhook: 2, filterObjectType: 2, filterObjectGuid: GUID, subscriberUrl: "https://hooks.example.com/x", customHeader: "X-Api-Key", customHeaderValue: SECRET });
  });

  it("accepts the integer form and type-scoped events without a filter GUID", () => {
    expect(checkInputs(typeScoped()).failures).toEqual([]);
    expect(checkInputs(typeScoped({ webhook: 5 })).inputs).toEqual({ webhook: 5, filterObjectType: 2, subscriberUrl: "https://hooks.example.com/x" });
  });

  it("leaves absent optional fields out (never undefined) and accepts an empty header value", () => {
    const { inputs } = checkInputs(valid({ customHeader: "X-Key", customHeaderValue: "" }));
    expect(Object.values(inputs)).not.toContain(undefined);
    expect(inputs.customHeaderValue).toBe("");
  });

  it("tolerates unknown values during preview and checks the rest", () => {
    const { inputs, failures } = checkInputs({ webhook: UNKNOWN, filterObjectType: UNKNOWN, filterObjectGuid: UNKNOWN, subscriberUrl: UNKNOWN, customHeader: UNKNOWN, customHeaderValue: UNKNOWN });
    expect(failures).toEqual([]);
    expect(inputs.subscriberUrl).toBe(UNKNOWN);
    expect(checkInputs({ webhook: 0, filterObjectType: 2, filterObjectGuid: UNKNOWN, subscriberUrl: "ftp://x" }).failures.map((f) => f.property)).toEqual(["subscriberUrl"]);
  });

  it("reports every bad field at once", () => {
    const { failures } = checkInputs({ webhook: "Nope", filterObjectType: "x", subscriberUrl: "x" });
    expect(failures.map((f) => f.property).sort()).toEqual(["filterObjectType", "subscriberUrl", "webhook"]);
  });
});

/**
 * check: every bad input gets one clear failure on the right field, showing the bad value
 * (never a secret's) and what to do; good inputs are normalised to what the service returns.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { UNKNOWN, checkInputs, type SubscriptionInputs } from "../../provider/core/inputs";
import type { WebhookId } from "../../provider/wire";
import { BAD_INPUTS, GUID, SECRET, typeScoped, valid } from "../support/badInputs";

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
    const { inputs, failures } = checkInputs(
      valid({
        webhook: "NewCommunication",
        filterObjectGuid: GUID.toUpperCase(),
        customHeader: "X Api Key",
        customHeaderValue: SECRET,
      }),
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      webhook: 2,
      filterObjectType: 2,
      filterObjectGuid: GUID,
      subscriberUrl: "https://hooks.example.com/x",
      customHeader: "X-Api-Key",
      customHeaderValue: SECRET,
    });
  });

  it("accepts the integer form and type-scoped events without a filter GUID", () => {
    expect(checkInputs(typeScoped()).failures).toEqual([]);
    expect(checkInputs(typeScoped({ webhook: 5 })).inputs).toEqual({
      webhook: 5,
      filterObjectType: 2,
      subscriberUrl: "https://hooks.example.com/x",
    });
  });

  it("leaves absent optional fields out (never undefined) and accepts an empty header value", () => {
    const { inputs } = checkInputs(valid({ customHeader: "X-Key", customHeaderValue: "" }));
    expect(Object.values(inputs)).not.toContain(undefined);
    expect(inputs.customHeaderValue).toBe("");
  });

  it("tolerates unknown values during preview and checks the rest", () => {
    const { inputs, failures } = checkInputs({
      webhook: UNKNOWN,
      filterObjectType: UNKNOWN,
      filterObjectGuid: UNKNOWN,
      subscriberUrl: UNKNOWN,
      customHeader: UNKNOWN,
      customHeaderValue: UNKNOWN,
    });
    expect(failures).toEqual([]);
    expect(inputs.subscriberUrl).toBe(UNKNOWN);
    expect(
      checkInputs({
        webhook: 0,
        filterObjectType: 2,
        filterObjectGuid: UNKNOWN,
        subscriberUrl: "ftp://x",
      }).failures.map((f) => f.property),
    ).toEqual(["subscriberUrl"]);
  });

  it("reports every bad field at once", () => {
    const { failures } = checkInputs({ webhook: "Nope", filterObjectType: "x", subscriberUrl: "x" });
    expect(failures.map((f) => f.property).sort()).toEqual(["filterObjectType", "subscriberUrl", "webhook"]);
  });
});

describe("the input type derived from the schema", () => {
  it("has required and optional fields as the resource declares them, enums as integers", () => {
    expectTypeOf<SubscriptionInputs>().toEqualTypeOf<{
      webhook: WebhookId;
      filterObjectType: number;
      filterObjectGuid?: string | undefined;
      subscriberUrl: string;
      customHeader?: string | undefined;
      customHeaderValue?: string | undefined;
      adoptGuid?: string | undefined;
      rotation?: string | undefined;
    }>();
  });
});

describe("check remembers recent inputs", () => {
  it("gives the same result for the same inputs again, each call its own copy", () => {
    const raw = valid({ customHeader: "X Team", customHeaderValue: SECRET });
    const first = checkInputs(raw);
    first.inputs.customHeader = "changed by a caller";
    const second = checkInputs({ ...raw });
    expect(second.inputs.customHeader).toBe("X-Team");
    expect(second).toEqual({ ...first, inputs: { ...first.inputs, customHeader: "X-Team" } });
  });

  it("tells apart inputs that only look alike: a number and its string, a failure and a pass", () => {
    const asNumber = checkInputs(valid({ filterObjectType: 2 }));
    const asString = checkInputs(valid({ filterObjectType: "2" }));
    expect(asNumber.failures).toEqual([]);
    expect(asString.failures.map((f) => f.property)).toEqual(["filterObjectType"]);
    expect(checkInputs(valid({ filterObjectType: 2 })).failures).toEqual([]);
    const failed = checkInputs(valid({ subscriberUrl: "not a url" }));
    failed.failures[0]!.reason = "changed by a caller";
    expect(checkInputs(valid({ subscriberUrl: "not a url" })).failures[0]!.reason).toMatch(/subscriberUrl/);
  });
});

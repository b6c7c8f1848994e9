/**
 * Hostile input: a receiver is called with whatever a request (or a buggy framework) hands it.
 * For any headers, `verifySignature` answers false and never throws; `assertSignature` throws a
 * `SignatureVerificationError` with code MALFORMED_HEADER, whose message shows no value. Only
 * the receiver's own configuration can make either throw a `SignatureOptionsError`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertSignature,
  createVerifier,
  SignatureErrorCode,
  SignatureOptionsError,
  SignatureVerificationError,
  verifySignature,
  type HeadersLike,
} from "../../provider/receiver";
import { FUZZ_SEED } from "../support/fuzzSeed";

const SIGNATURE = "5e1a7c2d-0b9f-4c3e-8a61-secretsig0001";
const HEADER = "x-service-signature";

/** Headers as a hostile caller might pass them (typed away on purpose). */
const hostile = (value: unknown) => value as HeadersLike;

function assertFailure(headers: unknown, expected: unknown = SIGNATURE): SignatureVerificationError {
  try {
    assertSignature(hostile(headers), expected as string);
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return error as SignatureVerificationError;
  }
  throw new Error("assertSignature did not throw");
}

describe("malformed headers", () => {
  const cases: [string, unknown][] = [
    ["a number value", { [HEADER]: 42 }],
    ["an object value", { [HEADER]: { value: SIGNATURE } }],
    ["a boolean value", { [HEADER]: true }],
    ["a null value", { [HEADER]: null }],
    ["an array holding a number", { [HEADER]: [SIGNATURE, 7] }],
    ["an array holding null", { [HEADER]: [null] }],
    ["headers = null", null],
    ["headers = undefined", undefined],
    ["headers = an array", [[HEADER, SIGNATURE]]],
    ["headers = a string", `${HEADER}: ${SIGNATURE}`],
    ["headers = a number", 1],
    ["a Headers-like whose get answers a number", { get: () => 5, forEach: () => undefined }],
    [
      "a Headers-like whose get throws",
      {
        get: () => {
          throw new Error(SIGNATURE);
        },
        forEach: () => undefined,
      },
    ],
  ];

  it.each(cases)("%s: verifySignature answers false, assertSignature throws MALFORMED_HEADER", (_name, headers) => {
    expect(verifySignature(hostile(headers), SIGNATURE)).toBe(false);
    const error = assertFailure(headers);
    expect(error.code).toBe(SignatureErrorCode.MalformedHeader);
    expect(error.message).toContain("Reject it");
    expect(error.message).not.toContain(SIGNATURE);
  });

  it("names the type and the header, never the value", () => {
    expect(assertFailure({ [HEADER]: 42 }).message).toMatchInlineSnapshot(
      `"the "x-service-signature" header has a number value, not a string: no HTTP stack sends this, so the message is not genuine. Reject it."`,
    );
    expect(assertFailure(null).header).toBe("(headers)");
  });

  it("a malformed custom header is MALFORMED_HEADER too", () => {
    const error = (() => {
      try {
        assertSignature(hostile({ [HEADER]: SIGNATURE, "x-api-key": 1 }), SIGNATURE, {
          customHeader: { name: "X-Api-Key", value: "v" },
        });
      } catch (caught) {
        return caught as SignatureVerificationError;
      }
      throw new Error("expected a throw");
    })();
    expect(error.code).toBe("MALFORMED_HEADER");
    expect(error.header).toBe("x-api-key");
  });

  it("unusable expected values are the receiver's mistake: verifySignature throws SignatureOptionsError for them", () => {
    const headers = { [HEADER]: SIGNATURE };
    for (const expected of [undefined, null, 42, {}, [SIGNATURE, 1], "", [], ` ${SIGNATURE}`]) {
      expect(() => verifySignature(headers, expected as string)).toThrow(SignatureOptionsError);
    }
    expect(() => verifySignature(headers, SIGNATURE, { product: 5 as never })).toThrow(SignatureOptionsError);
    // null options are no options.
    expect(verifySignature(headers, SIGNATURE, null as never)).toBe(true);
  });
});

describe("fuzzed header values and shapes", () => {
  const anyValue = fc.oneof(
    fc.anything(),
    fc.string(),
    fc.constant(SIGNATURE),
    fc.array(fc.oneof(fc.string(), fc.constant(SIGNATURE), fc.anything())),
  );
  const headersArb = fc.oneof(
    fc.dictionary(fc.oneof(fc.constant(HEADER), fc.constant("X-Service-Signature"), fc.string()), anyValue),
    fc.record({ [HEADER]: anyValue }),
    fc.anything(),
  );

  it(`verifySignature never throws on headers, throws only SignatureOptionsError for unusable options, and is true only for a genuine message (FUZZ_SEED=${FUZZ_SEED})`, () => {
    let accepted = 0;
    let configured = 0;
    fc.assert(
      fc.property(headersArb, fc.oneof(fc.constant<unknown>(SIGNATURE), fc.anything()), (headers, expected) => {
        // Whether it throws depends on the options alone: createVerifier decides it before any headers.
        let verify: ((headers: HeadersLike) => boolean) | undefined;
        try {
          verify = createVerifier(expected as string);
        } catch (error) {
          expect(error).toBeInstanceOf(SignatureOptionsError);
          expect(() => verifySignature(hostile(headers), expected as string)).toThrow(SignatureOptionsError);
          expect(() => assertSignature(hostile(headers), expected as string)).toThrow(SignatureOptionsError);
          return;
        }
        configured += 1;
        const ok = verifySignature(hostile(headers), expected as string);
        expect(typeof ok).toBe("boolean");
        expect(verify(hostile(headers))).toBe(ok);
        if (ok) {
          accepted += 1;
          expect(expected).toBe(SIGNATURE);
        }
        // The throwing variant throws only its two documented kinds.
        try {
          assertSignature(hostile(headers), expected as string);
          expect(ok).toBe(true);
        } catch (error) {
          expect((error as Error).name).toMatch(/^Signature(Verification|Options)Error$/);
          expect((error as Error).message).not.toContain(SIGNATURE);
        }
      }),
      { numRuns: 2000, seed: FUZZ_SEED },
    );
    expect(accepted).toBeGreaterThan(0);
    expect(configured).toBeGreaterThan(500);
  });
});

/**
 * Receiver-side verification (spec, Events): the signature header and the custom header, in
 * every header shape a receiver meets, with the boolean and the throwing variant agreeing.
 */
import * as crypto from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  assertSignature,
  createVerifier,
  signatureHeaderName,
  SignatureOptionsError,
  SignatureVerificationError,
  verifySignature,
  type HeadersLike,
  type VerifySignatureOptions,
} from "../../provider/receiver";

// Spied on, not replaced: proves the comparison goes through timingSafeEqual.
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

// Distinctive values, so a test can prove no message ever contains them.
const SIGNATURE = "5e1a7c2d-0b9f-4c3e-8a61-secretsig0001";
const NEW_SIGNATURE = "5e1a7c2d-0b9f-4c3e-8a61-secretsig0002";
const FORGED = "5e1a7c2d-0b9f-4c3e-8a61-forgedsig0003";
const HEADER_VALUE = "header-value-secret-42";
const CUSTOM = { name: "X Api Key", value: HEADER_VALUE };

/** Calls the throwing variant and returns its error (fails the test if it does not throw). */
function failure(
  headers: HeadersLike,
  expected: string | readonly string[],
  options?: VerifySignatureOptions,
): SignatureVerificationError {
  try {
    assertSignature(headers, expected, options);
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return error as SignatureVerificationError;
  }
  throw new Error("assertSignature did not throw");
}

/** The error `call` throws (fails the test if it does not throw). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/**
 * The options error for a bad configuration: verifySignature, assertSignature and createVerifier
 * (at setup, before any message) all throw the same one, whatever the headers.
 */
function optionsFailure(expected: unknown, options?: VerifySignatureOptions): SignatureOptionsError {
  const headers = { "x-service-signature": SIGNATURE };
  const errors = [
    thrownBy(() => verifySignature(headers, expected as string, options)),
    thrownBy(() => verifySignature(null as never, expected as string, options)),
    thrownBy(() => assertSignature(headers, expected as string, options)),
    thrownBy(() => createVerifier(expected as string, options)),
  ];
  for (const error of errors) expect(error).toBeInstanceOf(SignatureOptionsError);
  const [first] = errors as SignatureOptionsError[];
  for (const error of errors as SignatureOptionsError[])
    expect([error.code, error.message]).toEqual([first!.code, first!.message]);
  return first!;
}

describe("a genuine message", () => {
  it("is accepted from Node's lower-case IncomingHttpHeaders", () => {
    const headers: IncomingHttpHeaders = { "content-type": "application/json", "x-service-signature": SIGNATURE };
    expect(verifySignature(headers, SIGNATURE)).toBe(true);
    expect(() => assertSignature(headers, SIGNATURE)).not.toThrow();
  });

  it("is accepted whatever the case of the header name in a plain record", () => {
    for (const name of ["X-Service-Signature", "X-SERVICE-SIGNATURE", "x-Service-signature"]) {
      expect(verifySignature({ [name]: SIGNATURE }, SIGNATURE)).toBe(true);
    }
  });

  it("is accepted from a WHATWG Headers", () => {
    const headers = new Headers({ "X-Service-Signature": SIGNATURE, "X-Api-Key": HEADER_VALUE });
    expect(verifySignature(headers, SIGNATURE, { customHeader: CUSTOM })).toBe(true);
  });

  it("is accepted with a one-element array value, as a hand-built record may have", () => {
    expect(verifySignature({ "x-service-signature": [SIGNATURE] }, SIGNATURE)).toBe(true);
  });

  it("ignores undefined record values", () => {
    expect(verifySignature({ "x-service-signature": SIGNATURE, "x-other": undefined }, SIGNATURE)).toBe(true);
  });
});

describe("several accepted signatures (a replacement's overlap)", () => {
  it("accepts a message signed with either the old or the new signature", () => {
    const accepted = [SIGNATURE, NEW_SIGNATURE];
    expect(verifySignature({ "x-service-signature": SIGNATURE }, accepted)).toBe(true);
    expect(verifySignature({ "x-service-signature": NEW_SIGNATURE }, accepted)).toBe(true);
    expect(verifySignature({ "x-service-signature": FORGED }, accepted)).toBe(false);
  });

  it("says how many signatures were tried when none matches", () => {
    expect(failure({ "x-service-signature": FORGED }, [SIGNATURE, NEW_SIGNATURE]).message).toMatchInlineSnapshot(
      `""x-service-signature" does not match any of the 2 accepted signatures. If the subscription was replaced (new GUID), its Signature rotated: read the new one with \`pulumi stack output signature --show-secrets\` and accept both the old and the new signature (pass an array) until the old subscription is deleted. Otherwise the message is forged: reject it."`,
    );
  });
});

describe("the product word", () => {
  it("defaults to service and builds x-<product>-signature", () => {
    expect(signatureHeaderName()).toBe("x-service-signature");
    expect(signatureHeaderName("Acme")).toBe("x-acme-signature");
    expect(signatureHeaderName("my-product")).toBe("x-my-product-signature");
  });

  it("selects the header, case-insensitively", () => {
    expect(verifySignature({ "x-acme-signature": SIGNATURE }, SIGNATURE, { product: "acme" })).toBe(true);
    expect(verifySignature({ "X-Acme-Signature": SIGNATURE }, SIGNATURE, { product: "ACME" })).toBe(true);
    expect(verifySignature({ "x-service-signature": SIGNATURE }, SIGNATURE, { product: "acme" })).toBe(false);
  });

  it("when wrong, the error names the signature headers that were present and the word to set", () => {
    const error = failure({ "x-acme-signature": SIGNATURE, "content-type": "application/json" }, SIGNATURE);
    expect(error.code).toBe("MISSING_HEADER");
    expect(error.header).toBe("x-service-signature");
    expect(error.message).toMatchInlineSnapshot(
      `"The message has no "x-service-signature" header, but has "x-acme-signature": wrong product name? Set \`product\` to the word the service uses ("acme"), the same as the provider's webhooks:productName."`,
    );
  });

  it("lists every signature-like header present (WHATWG Headers too)", () => {
    const headers = new Headers({ "X-Acme-Signature": SIGNATURE, "X-Hub-Signature": FORGED });
    expect(failure(headers, SIGNATURE).message).toContain(`"x-acme-signature", "x-hub-signature"`);
  });
});

describe("a message that is not genuine", () => {
  it("unsigned: MISSING_HEADER, saying no signature header was present at all", () => {
    const headers = { "content-type": "application/json" };
    expect(verifySignature(headers, SIGNATURE)).toBe(false);
    const error = failure(headers, SIGNATURE);
    expect(error.code).toBe("MISSING_HEADER");
    expect(error.message).toMatchInlineSnapshot(
      `"The message has no "x-service-signature" header, nor any other x-…-signature header: it was not sent by the service, or a proxy in between dropped the header. Reject it."`,
    );
  });

  it("unsigned, empty headers and empty WHATWG Headers: MISSING_HEADER", () => {
    expect(failure({}, SIGNATURE).code).toBe("MISSING_HEADER");
    expect(failure(new Headers(), SIGNATURE).code).toBe("MISSING_HEADER");
  });

  it("forged with a value of the same length: MISMATCH", () => {
    expect(FORGED).toHaveLength(SIGNATURE.length);
    expect(verifySignature({ "x-service-signature": FORGED }, SIGNATURE)).toBe(false);
    const error = failure({ "x-service-signature": FORGED }, SIGNATURE);
    expect(error.code).toBe("MISMATCH");
    expect(error.header).toBe("x-service-signature");
    expect(error.message).toMatchInlineSnapshot(
      `""x-service-signature" does not match the expected signature. If the subscription was replaced (new GUID), its Signature rotated: read the new one with \`pulumi stack output signature --show-secrets\` and accept both the old and the new signature (pass an array) until the old subscription is deleted. Otherwise the message is forged: reject it."`,
    );
  });

  it("forged with a different length, an empty value, or a prefix of the signature: MISMATCH", () => {
    for (const value of ["short", "", SIGNATURE.slice(0, -1), `${SIGNATURE}x`, SIGNATURE.toUpperCase()]) {
      expect(verifySignature({ "x-service-signature": value }, SIGNATURE)).toBe(false);
      expect(failure({ "x-service-signature": value }, SIGNATURE).code).toBe("MISMATCH");
    }
  });

  it("signature header repeated (array value, or two spellings of the name): DUPLICATE_HEADER", () => {
    const asArray = { "x-service-signature": [SIGNATURE, SIGNATURE] };
    const twoSpellings = { "x-service-signature": SIGNATURE, "X-Service-Signature": SIGNATURE };
    for (const headers of [asArray, twoSpellings]) {
      expect(verifySignature(headers, SIGNATURE)).toBe(false);
      expect(failure(headers, SIGNATURE).code).toBe("DUPLICATE_HEADER");
    }
    expect(failure(asArray, SIGNATURE).message).toMatchInlineSnapshot(
      `"The message carries the header "x-service-signature" 2 times; the service sends it once. Reject it."`,
    );
  });

  it("a WHATWG Headers joins a repeated header into one value, which then does not match", () => {
    const headers = new Headers();
    headers.append("x-service-signature", SIGNATURE);
    headers.append("x-service-signature", SIGNATURE);
    expect(failure(headers, SIGNATURE).code).toBe("MISMATCH");
  });
});

describe("the custom header", () => {
  const signed = { "x-service-signature": SIGNATURE };

  it("is checked under its saved name: spaces become hyphens, any case", () => {
    expect(verifySignature({ ...signed, "x-api-key": HEADER_VALUE }, SIGNATURE, { customHeader: CUSTOM })).toBe(true);
    expect(
      verifySignature({ ...signed, "X-API-KEY": HEADER_VALUE }, SIGNATURE, {
        customHeader: { name: "X-Api-Key", value: HEADER_VALUE },
      }),
    ).toBe(true);
  });

  it("accepts several values while an update rolls out", () => {
    const customHeader = { name: "X Api Key", value: ["old-value", HEADER_VALUE] };
    expect(verifySignature({ ...signed, "x-api-key": "old-value" }, SIGNATURE, { customHeader })).toBe(true);
    expect(verifySignature({ ...signed, "x-api-key": HEADER_VALUE }, SIGNATURE, { customHeader })).toBe(true);
    expect(verifySignature({ ...signed, "x-api-key": "other" }, SIGNATURE, { customHeader })).toBe(false);
  });

  it("may be expected empty: the service sends it empty when the subscription has a name but no value", () => {
    expect(
      verifySignature({ ...signed, "x-api-key": "" }, SIGNATURE, { customHeader: { name: "X-Api-Key", value: "" } }),
    ).toBe(true);
    expect(verifySignature({ ...signed }, SIGNATURE, { customHeader: { name: "X-Api-Key", value: "" } })).toBe(false);
  });

  it("is not looked at when the signature already failed", () => {
    expect(failure({ "x-service-signature": FORGED }, SIGNATURE, { customHeader: CUSTOM }).code).toBe("MISMATCH");
  });

  it("missing: MISSING_CUSTOM_HEADER, listing the x- headers that were present", () => {
    const error = failure({ ...signed, "x-api_key": HEADER_VALUE }, SIGNATURE, { customHeader: CUSTOM });
    expect(error.code).toBe("MISSING_CUSTOM_HEADER");
    expect(error.header).toBe("X-Api-Key");
    expect(error.message).toMatchInlineSnapshot(
      `"The message has no "X-Api-Key" custom header (x- headers present: "x-api_key"). Check the subscription's customHeader: the service sends the name with spaces replaced by hyphens ("X Api Key" → "X-Api-Key"), and sends no custom header when customHeader is empty."`,
    );
    expect(failure(signed, SIGNATURE, { customHeader: CUSTOM }).message).toContain("no other x- headers are present");
  });

  it("wrong value: CUSTOM_HEADER_MISMATCH", () => {
    const headers = new Headers({ ...signed, "X-Api-Key": "guessed-value" });
    expect(verifySignature(headers, SIGNATURE, { customHeader: CUSTOM })).toBe(false);
    const error = failure(headers, SIGNATURE, { customHeader: CUSTOM });
    expect(error.code).toBe("CUSTOM_HEADER_MISMATCH");
    expect(error.message).toMatchInlineSnapshot(
      `"The "X-Api-Key" custom header does not match the expected value. Check the subscription's customHeaderValue; an update changes it in place, so accept both the old and the new value (pass an array) while the change rolls out."`,
    );
  });

  it("repeated: DUPLICATE_CUSTOM_HEADER", () => {
    const error = failure({ ...signed, "x-api-key": [HEADER_VALUE, HEADER_VALUE] }, SIGNATURE, {
      customHeader: CUSTOM,
    });
    expect(error.code).toBe("DUPLICATE_CUSTOM_HEADER");
    expect(error.message).toMatchInlineSnapshot(
      `"The message carries the custom header "X-Api-Key" 2 times; the service sends it once. Reject it."`,
    );
  });
});

describe("misconfigured options: verifySignature, assertSignature and createVerifier throw SignatureOptionsError", () => {
  it("no expected signature: an unset variable, an empty string, an empty array", () => {
    for (const expected of ["", [], [""], undefined, null])
      expect(optionsFailure(expected).code).toBe("NO_EXPECTED_SIGNATURE");
    // The README's own pattern, with WEBHOOK_SIGNATURE unset.
    const unset = optionsFailure(process.env.PWS_TEST_VARIABLE_THAT_IS_NEVER_SET);
    expect(unset.message).toMatchInlineSnapshot(
      `"expectedSignature is undefined: no message could ever be accepted. Pass the subscription's Signature (\`pulumi stack output signature --show-secrets\`); if the receiver reads it from an environment variable (such as WEBHOOK_SIGNATURE), that variable is not set where it runs."`,
    );
    expect(optionsFailure("").message).toMatch(
      /^expectedSignature is an empty string: no message could ever be accepted/,
    );
    expect(optionsFailure([]).message).toMatch(/^expectedSignature is an empty array: /);
    expect(optionsFailure(null).message).toMatch(/^expectedSignature is null: /);
  });

  it("is a configuration error, not a message's: a genuine message does not get past it either", () => {
    const genuine = { "x-service-signature": SIGNATURE };
    expect(() => verifySignature(genuine, undefined as never)).toThrow(SignatureOptionsError);
    expect(() => verifySignature(genuine, SIGNATURE, { customHeader: { name: "X-Key", value: [] } })).toThrow(
      SignatureOptionsError,
    );
  });

  it("an unusable expected signature, named by its position", () => {
    expect(optionsFailure([SIGNATURE, ""]).message).toMatchInlineSnapshot(
      `"expected signature #2 is empty (a stray comma in a list?): remove it"`,
    );
    expect(optionsFailure(`${SIGNATURE}\n`).message).toMatchInlineSnapshot(
      `"expected signature has leading or trailing whitespace (a newline read from a file?): trim it"`,
    );
    expect(optionsFailure([SIGNATURE, 42]).message).toMatchInlineSnapshot(
      `"expected signature #2 must be a string, got number"`,
    );
    expect(optionsFailure([SIGNATURE, ""]).code).toBe("INVALID_EXPECTED_SIGNATURE");
  });

  it("a product word that cannot be part of a header name", () => {
    const error = optionsFailure(SIGNATURE, { product: "my product" });
    expect(error.code).toBe("INVALID_PRODUCT");
    expect(error.message).toMatchInlineSnapshot(
      `"product must be letters, digits and hyphens (the word in x-<product>-signature), got "my product""`,
    );
    expect(optionsFailure(SIGNATURE, { product: "" }).code).toBe("INVALID_PRODUCT");
  });

  it("a custom header without a usable name or value", () => {
    expect(optionsFailure(SIGNATURE, { customHeader: { name: "", value: "v" } }).code).toBe("INVALID_CUSTOM_HEADER");
    expect(optionsFailure(SIGNATURE, { customHeader: { name: "X:Key", value: "v" } }).message).toMatchInlineSnapshot(
      `"customHeader.name must be a header name (the subscription's customHeader), got "X:Key""`,
    );
    expect(optionsFailure(SIGNATURE, { customHeader: { name: "X-Key", value: [] } }).message).toMatchInlineSnapshot(
      `"customHeader.value is an empty array: pass the subscription's customHeaderValue, or leave customHeader out"`,
    );
    expect(
      optionsFailure(SIGNATURE, { customHeader: { name: "X-Key", value: undefined as never } }).message,
    ).toMatchInlineSnapshot(
      `"customHeader.value is undefined: pass the subscription's customHeaderValue, or leave customHeader out"`,
    );
    expect(optionsFailure(SIGNATURE, { customHeader: { name: "X-Key", value: ` ${HEADER_VALUE}` } }).code).toBe(
      "INVALID_CUSTOM_HEADER",
    );
  });
});

describe("createVerifier: the options checked once, at setup", () => {
  it("answers like verifySignature for every message", () => {
    const verify = createVerifier([SIGNATURE, NEW_SIGNATURE], { customHeader: CUSTOM });
    const messages: HeadersLike[] = [
      { "x-service-signature": SIGNATURE, "x-api-key": HEADER_VALUE },
      { "x-service-signature": NEW_SIGNATURE, "X-Api-Key": HEADER_VALUE },
      { "x-service-signature": FORGED, "x-api-key": HEADER_VALUE },
      { "x-service-signature": SIGNATURE },
      new Headers({ "x-service-signature": SIGNATURE, "x-api-key": HEADER_VALUE }),
      {},
    ];
    const answers = messages.map((headers) => verify(headers));
    expect(answers).toEqual([true, true, false, false, true, false]);
    expect(
      messages.map((headers) => verifySignature(headers, [SIGNATURE, NEW_SIGNATURE], { customHeader: CUSTOM })),
    ).toEqual(answers);
  });

  it("never throws on headers once set up", () => {
    const verify = createVerifier(SIGNATURE);
    for (const headers of [null, undefined, 42, [SIGNATURE], { "x-service-signature": 42 }])
      expect(verify(headers as never)).toBe(false);
  });
});

describe("secrets never appear in errors", () => {
  const secrets = [SIGNATURE, NEW_SIGNATURE, FORGED, HEADER_VALUE, "guessed-value"];
  const cases: [string, HeadersLike, string | string[], VerifySignatureOptions?][] = [
    ["mismatch", { "x-service-signature": FORGED }, SIGNATURE],
    ["mismatch of several", { "x-service-signature": FORGED }, [SIGNATURE, NEW_SIGNATURE]],
    ["wrong product", { "x-acme-signature": FORGED }, SIGNATURE],
    ["duplicate", { "x-service-signature": [FORGED, SIGNATURE] }, SIGNATURE],
    [
      "custom mismatch",
      { "x-service-signature": SIGNATURE, "x-api-key": "guessed-value" },
      SIGNATURE,
      { customHeader: CUSTOM },
    ],
    [
      "custom missing",
      { "x-service-signature": SIGNATURE, "x-api_key": HEADER_VALUE },
      SIGNATURE,
      { customHeader: CUSTOM },
    ],
    [
      "custom duplicate",
      { "x-service-signature": SIGNATURE, "x-api-key": [HEADER_VALUE, "guessed-value"] },
      SIGNATURE,
      { customHeader: CUSTOM },
    ],
  ];

  it.each(cases)("%s", (_name, headers, expected, options) => {
    const error = failure(headers, expected, options);
    const everything = `${error.message}\n${error.stack ?? ""}\n${JSON.stringify(error)}\n${String(error)}`;
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it("nor in options errors", () => {
    const errors = [
      optionsFailure([SIGNATURE, `${NEW_SIGNATURE} `]),
      optionsFailure(SIGNATURE, { customHeader: { name: "X Api Key", value: `${HEADER_VALUE}\n` } }),
      optionsFailure(SIGNATURE, { customHeader: { name: "X:Key", value: HEADER_VALUE } }),
    ];
    for (const error of errors)
      for (const secret of secrets) expect(`${error.message}${JSON.stringify(error)}`).not.toContain(secret);
  });
});

describe("constant-time comparison", () => {
  const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

  it("compares every same-length accepted signature with timingSafeEqual, even after a match", () => {
    timingSafeEqual.mockClear();
    expect(verifySignature({ "x-service-signature": SIGNATURE }, [SIGNATURE, NEW_SIGNATURE])).toBe(true);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });

  it("checks the length first, so values of another length never reach timingSafeEqual (which would throw)", () => {
    timingSafeEqual.mockClear();
    expect(
      verifySignature({ "x-service-signature": "short" }, [SIGNATURE, "a-much-longer-signature-than-the-header"]),
    ).toBe(false);
    expect(timingSafeEqual).not.toHaveBeenCalled();
  });

  it("compares custom header values the same way", () => {
    timingSafeEqual.mockClear();
    verifySignature({ "x-service-signature": SIGNATURE, "x-api-key": HEADER_VALUE }, SIGNATURE, {
      customHeader: CUSTOM,
    });
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
  });
});

describe("public types and the package entry", () => {
  it("accepts Node's IncomingHttpHeaders, WHATWG Headers and plain records", () => {
    expectTypeOf<IncomingHttpHeaders>().toMatchTypeOf<HeadersLike>();
    expectTypeOf<Headers>().toMatchTypeOf<HeadersLike>();
    expectTypeOf<Record<string, string>>().toMatchTypeOf<HeadersLike>();
    expectTypeOf(verifySignature).returns.toEqualTypeOf<boolean>();
    expectTypeOf(assertSignature).returns.toEqualTypeOf<void>();
  });

  it("errors carry a stable name and code", () => {
    const error = failure({}, SIGNATURE);
    expect(error.name).toBe("SignatureVerificationError");
    expect(error).toBeInstanceOf(Error);
    expect(optionsFailure("").name).toBe("SignatureOptionsError");
  });

  it("is exported from the package entry", async () => {
    const entry = await import("../../index");
    expect(entry.verifySignature).toBe(verifySignature);
    expect(entry.assertSignature).toBe(assertSignature);
    expect(entry.SignatureVerificationError).toBe(SignatureVerificationError);
  });
});

/**
 * The receiver's typed errors. Two kinds, because a receiver must treat them differently:
 * a `SignatureVerificationError` is about the message (answer 401), a `SignatureOptionsError`
 * is about the receiver's own configuration (a bug or a missing secret: answer 500 and fix it).
 * Messages name headers and counts, never a signature or custom header value, so they are
 * safe to log and to return to the caller.
 */

/** Why a message failed verification. Stable: these strings never change once released. */
export const SignatureErrorCode = {
  /** No `x-<product>-signature` header. */
  MissingHeader: "MISSING_HEADER",
  /** The signature header appears more than once. */
  DuplicateHeader: "DUPLICATE_HEADER",
  /** The signature header matches none of the accepted signatures. */
  Mismatch: "MISMATCH",
  /** The expected custom header is absent. */
  MissingCustomHeader: "MISSING_CUSTOM_HEADER",
  /** The custom header appears more than once. */
  DuplicateCustomHeader: "DUPLICATE_CUSTOM_HEADER",
  /** The custom header's value matches none of the accepted values. */
  CustomHeaderMismatch: "CUSTOM_HEADER_MISMATCH",
  /**
   * The headers are not what an HTTP stack produces: not an object, or a value that is a
   * number, an object, a boolean or null instead of a string (or an array of strings).
   */
  MalformedHeader: "MALFORMED_HEADER",
} as const;
export type SignatureErrorCode = (typeof SignatureErrorCode)[keyof typeof SignatureErrorCode];

/** What both error kinds share: a stable `code` to switch on, never the message. */
abstract class ReceiverError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

/** A message that is not proven genuine. Answer it with 401 and do not act on it. */
export class SignatureVerificationError extends ReceiverError<SignatureErrorCode> {
  /** Set explicitly so minified bundles still say what failed. */
  override readonly name = "SignatureVerificationError";

  constructor(
    code: SignatureErrorCode,
    /** The header the check was about, e.g. `"x-service-signature"` or `"X-Api-Key"`. */
    readonly header: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** Why the verification options are unusable. Stable strings. */
export const SignatureOptionsErrorCode = {
  /** No expected signature (an empty string or an empty array): often an unset environment variable. */
  NoExpectedSignature: "NO_EXPECTED_SIGNATURE",
  /** An expected signature is not a usable string (not a string, or padded with whitespace). */
  InvalidExpectedSignature: "INVALID_EXPECTED_SIGNATURE",
  /** `product` cannot be part of a header name. */
  InvalidProduct: "INVALID_PRODUCT",
  /** `customHeader` has no usable name or value. */
  InvalidCustomHeader: "INVALID_CUSTOM_HEADER",
} as const;
export type SignatureOptionsErrorCode = (typeof SignatureOptionsErrorCode)[keyof typeof SignatureOptionsErrorCode];

/**
 * The receiver was set up wrongly, so no message could ever be verified. Thrown by
 * `createVerifier` (at setup), `verifySignature` and `assertSignature`, whatever the headers:
 * returning false would turn a configuration mistake into a stream of 401s that look like an attack.
 */
export class SignatureOptionsError extends ReceiverError<SignatureOptionsErrorCode> {
  override readonly name = "SignatureOptionsError";
}

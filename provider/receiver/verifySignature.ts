/**
 * Verifying a delivered message (spec, Events): the service proves a message genuine only by
 * the `x-<product>-signature` header carrying the subscription's Signature, and optionally by
 * the subscription's custom header. There is no HMAC over the body, so this is a comparison
 * of secrets, made in constant time.
 *
 * Two kinds of input, two rules. The headers are hostile input: `verifySignature` answers false
 * for any headers and never throws on them, and `assertSignature` throws a
 * `SignatureVerificationError` that says what to check (`MALFORMED_HEADER` for headers no HTTP
 * stack produces). The expected signature and options are the receiver's own configuration: an
 * unusable one (an unset environment variable, most often) is a programming error, so both
 * functions throw a `SignatureOptionsError`, and `createVerifier` throws it at setup. Answering
 * false instead would reject every genuine message with a 401 that looks like an attack.
 */
import { SIGNATURE_HEADER_PATTERN } from "../wire/predicates";
import { matchesAny } from "./constantTime";
import { SignatureErrorCode, SignatureVerificationError } from "./errors";
import { headerNames, headerValues, MalformedHeaders, type HeadersLike } from "./headers";
import { resolveOptions, type ExpectedSignature, type ResolvedOptions, type VerifySignatureOptions } from "./options";

/** Why a message failed, before it becomes an error (the boolean variant never builds one). */
interface Failure {
  readonly code: SignatureErrorCode;
  readonly header: string;
  /** Built lazily: `verifySignature` only needs to know that there is a failure. */
  readonly message: () => string;
}

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(", ");

function missingSignatureMessage(headers: HeadersLike, expected: string): string {
  const others = headerNames(headers).filter((name) => SIGNATURE_HEADER_PATTERN.test(name));
  if (others.length === 0) {
    return (
      `The message has no ${JSON.stringify(expected)} header, nor any other x-…-signature header: ` +
      "it was not sent by the service, or a proxy in between dropped the header. Reject it."
    );
  }
  const words = others.map((name) => name.slice("x-".length, -"-signature".length));
  return (
    `The message has no ${JSON.stringify(expected)} header, but has ${quoted(others)}: wrong product name? ` +
    `Set \`product\` to the word the service uses (${quoted(words)}), the same as the provider's webhooks:productName.`
  );
}

function mismatchMessage(header: string, accepted: number): string {
  const against = accepted === 1 ? "the expected signature" : `any of the ${accepted} accepted signatures`;
  return (
    `${JSON.stringify(header)} does not match ${against}. If the subscription was replaced (new GUID), its Signature rotated: ` +
    "read the new one with `pulumi stack output signature --show-secrets` and accept both the old and the new signature " +
    "(pass an array) until the old subscription is deleted. Otherwise the message is forged: reject it."
  );
}

function missingCustomHeaderMessage(headers: HeadersLike, name: string, signatureHeader: string): string {
  const others = headerNames(headers).filter((header) => header.startsWith("x-") && header !== signatureHeader);
  const present = others.length === 0 ? "no other x- headers are present" : `x- headers present: ${quoted(others)}`;
  return (
    `The message has no ${JSON.stringify(name)} custom header (${present}). Check the subscription's customHeader: ` +
    'the service sends the name with spaces replaced by hyphens ("X Api Key" → "X-Api-Key"), and sends no custom header when customHeader is empty.'
  );
}

function customMismatchMessage(name: string): string {
  return (
    `The ${JSON.stringify(name)} custom header does not match the expected value. Check the subscription's customHeaderValue; ` +
    "an update changes it in place, so accept both the old and the new value (pass an array) while the change rolls out."
  );
}

function duplicateMessage(header: string, count: number, kind: string): string {
  return `The message carries ${kind} ${JSON.stringify(header)} ${count} times; the service sends it once. Reject it.`;
}

/** The first failed check, or null for a genuine message; malformed headers are a failure too. */
function check(headers: HeadersLike, resolved: ResolvedOptions): Failure | null {
  try {
    return checkHeaders(headers, resolved);
  } catch (error) {
    // Only the headers are read here (the options were checked before): a getter that throws is malformed too.
    const [header, what] =
      error instanceof MalformedHeaders
        ? [error.header, error.message]
        : ["(headers)", "the headers could not be read"];
    const reason = `${what}: no HTTP stack sends this, so the message is not genuine. Reject it.`;
    return { code: SignatureErrorCode.MalformedHeader, header, message: () => reason };
  }
}

/** The checks in order: signature first, then the custom header. */
function checkHeaders(headers: HeadersLike, resolved: ResolvedOptions): Failure | null {
  const header = resolved.signatureHeader;
  const signatures = headerValues(headers, header);
  const [signature] = signatures;
  if (signature === undefined)
    return { code: SignatureErrorCode.MissingHeader, header, message: () => missingSignatureMessage(headers, header) };
  if (signatures.length > 1)
    return {
      code: SignatureErrorCode.DuplicateHeader,
      header,
      message: () => duplicateMessage(header, signatures.length, "the header"),
    };
  if (!matchesAny(signature, resolved.signatures)) {
    return {
      code: SignatureErrorCode.Mismatch,
      header,
      message: () => mismatchMessage(header, resolved.signatures.length),
    };
  }

  const custom = resolved.customHeader;
  if (custom === null) return null;
  const values = headerValues(headers, custom.name);
  const [value] = values;
  if (value === undefined) {
    return {
      code: SignatureErrorCode.MissingCustomHeader,
      header: custom.name,
      message: () => missingCustomHeaderMessage(headers, custom.name, header),
    };
  }
  if (values.length > 1) {
    return {
      code: SignatureErrorCode.DuplicateCustomHeader,
      header: custom.name,
      message: () => duplicateMessage(custom.name, values.length, "the custom header"),
    };
  }
  if (!matchesAny(value, custom.values))
    return {
      code: SignatureErrorCode.CustomHeaderMismatch,
      header: custom.name,
      message: () => customMismatchMessage(custom.name),
    };
  return null;
}

/**
 * True when the message's headers prove it was sent for the subscription: its
 * `x-<product>-signature` header equals `expectedSignature` (or one of them), and, when
 * `options.customHeader` is given, the custom header carries the expected value.
 * Comparisons are constant time. Header names are matched case-insensitively.
 *
 * Any headers answer true or false, never a throw: malformed ones (null, a number or object as
 * a value, a getter that throws, …) answer false. Use `assertSignature` to learn which check
 * failed, e.g. while setting a receiver up.
 *
 * @param headers the request's headers: Node's `request.headers`, a plain record, or a WHATWG `Headers`.
 * @param expectedSignature the subscription's Signature (`pulumi stack output signature --show-secrets`),
 *   or several while an old and a new subscription overlap after a replacement.
 * @throws SignatureOptionsError when `expectedSignature` or `options` is unusable: undefined or
 *   empty (an unset environment variable), padded with whitespace, an impossible product word or
 *   custom header. A configuration mistake, never a property of the message.
 *
 * @example
 * if (!verifySignature(request.headers, process.env.WEBHOOK_SIGNATURE!)) return reply(401);
 */
export function verifySignature(
  headers: HeadersLike,
  expectedSignature: ExpectedSignature,
  options?: VerifySignatureOptions,
): boolean {
  return createVerifier(expectedSignature, options)(headers);
}

/**
 * `verifySignature` with the expected signature and options checked once, now: a misconfigured
 * receiver fails when it starts, not on its first message.
 *
 * @returns a function that answers, for a message's headers, whether they prove it genuine; it
 *   never throws, whatever the headers.
 * @throws SignatureOptionsError when `expectedSignature` or `options` is unusable (see `verifySignature`).
 *
 * @example
 * const verify = createVerifier(process.env.WEBHOOK_SIGNATURE!); // throws here if the variable is unset
 * createServer((req, res) => { if (!verify(req.headers)) … });
 */
export function createVerifier(
  expectedSignature: ExpectedSignature,
  options?: VerifySignatureOptions,
): (headers: HeadersLike) => boolean {
  const resolved = resolveOptions(expectedSignature, options);
  return (headers) => check(headers, resolved) === null;
}

/**
 * Like `verifySignature`, but throws a `SignatureVerificationError` for a message that is not
 * genuine. Its `code` says which check failed (`MISSING_HEADER`, `MISMATCH`, `MALFORMED_HEADER`
 * for headers no HTTP stack produces, …) and its message what to check; neither ever contains
 * a signature or header value, so both are safe to log (server-side: tell the sender nothing).
 *
 * @throws SignatureVerificationError when the message fails verification.
 * @throws SignatureOptionsError when the options are unusable.
 */
export function assertSignature(
  headers: HeadersLike,
  expectedSignature: ExpectedSignature,
  options?: VerifySignatureOptions,
): void {
  const failure = check(headers, resolveOptions(expectedSignature, options));
  if (failure !== null) throw new SignatureVerificationError(failure.code, failure.header, failure.message());
}

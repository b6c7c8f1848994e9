/**
 * The rules a subscription's values must follow, one definition each. The provider's `check`,
 * the client and the emulator all ask these, so preview, `up` and the service cannot disagree.
 * Each answers why a value is refused (or undefined when it is fine); callers word the message.
 * No zod here: the receiver uses the header-name rules and loads nothing it does not need.
 * (The GUID rule is `WireGuid` / `isGuid` in schemas.ts.)
 */

/**
 * Whether a custom header value is set: an empty value (`""`) sends no header, so it is none, and
 * no secret. The drift review and the policy both ask this.
 */
export function hasHeaderValue(s: { readonly customHeaderValue: string | null }): boolean {
  return s.customHeaderValue !== null && s.customHeaderValue !== "";
}

/** The custom header name as the service saves it: spaces become hyphens. */
export function normalizeHeaderName(name: string): string {
  return name.replace(/ /g, "-");
}

/**
 * A header name with spaces the service would turn into stray hyphens: leading, trailing or
 * repeated (`" X  Api Key "` is saved as `-X--Api-Key-`). Answers the name to write instead
 * (trimmed, one space between words), or undefined when the spaces are fine. Both front doors
 * ask this one rule (the Terraform door refuses every space, and names this form too).
 */
export function headerNameSpacesProblem(name: string): { suggested: string } | undefined {
  const suggested = name.trim().replace(/ {2,}/g, " ");
  return suggested === name ? undefined : { suggested };
}

/** RFC 9110 token characters: what an HTTP header name may hold. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `name` is a valid HTTP header name (check it after `normalizeHeaderName`). */
export function isHeaderName(name: string): boolean {
  return HEADER_TOKEN.test(name);
}

/** Headers a custom header must not set, with the reason (keys lower-case). */
const RESERVED_HEADERS: ReadonlyMap<string, string> = new Map([
  ["host", "the HTTP client sets Host from the subscriber URL"],
  ["content-length", "the HTTP client frames the message body itself"],
  ["transfer-encoding", "the HTTP client frames the message body itself"],
  ["connection", "it controls the connection, not the message"],
  ["content-type", "the service sends every message as application/json"],
]);

/** The product word (letters, digits and hyphens): it becomes part of the `x-<product>-signature` header name. */
export const PRODUCT_PATTERN = /^[A-Za-z0-9-]+$/;

/** `x-<product>-signature`, whatever the product word: a header that carries a Signature. */
export const SIGNATURE_HEADER_PATTERN = /^x-[a-z0-9-]+-signature$/i;

/**
 * Why a (normalised, valid) header name is reserved and must not be a custom header, or
 * undefined when it is free to use.
 */
export function reservedHeaderReason(name: string): string | undefined {
  const reason = RESERVED_HEADERS.get(name.toLowerCase());
  if (reason !== undefined) return reason;
  if (SIGNATURE_HEADER_PATTERN.test(name)) return "it carries the Signature, which a custom header must not forge";
  return undefined;
}

/**
 * Why `value` cannot be sent as an HTTP header value, or undefined when it can. RFC 9110 allows
 * tab, visible ASCII, space and bytes 0x80–0xFF; a line break would inject a header, NUL and the
 * other control characters are refused by HTTP stacks, and Node cannot send characters beyond Latin-1.
 * The answer never quotes the value (it is a secret).
 */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return "a line break";
  if (value.includes("\0")) return "a NUL character";
  // eslint-disable-next-line no-control-regex -- control characters are what this rule is about
  if (/[\x01-\x08\x0b-\x1f\x7f]/.test(value)) return "a control character";
  if (/[^\t\x20-\xff]/.test(value)) return "a character outside Latin-1";
  return undefined;
}

/** Why a string is not an absolute http(s) URL; `scheme` is set for a URL of another scheme. */
export type UrlProblem =
  { kind: "not-absolute" } | { kind: "scheme"; scheme: string } | { kind: "whitespace" } | { kind: "credentials" };

/**
 * Why `value` is not an absolute http(s) URL with a host, or undefined when it is. The scheme
 * must be followed by `//`: WHATWG URL parsing accepts `http:host/x` and `https:/host`, which
 * are typos, not URLs anyone means.
 */
export function httpUrlProblem(value: string): UrlProblem | undefined {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { kind: "not-absolute" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return { kind: "scheme", scheme: parsed.protocol.slice(0, -1) };
  if (!/^https?:\/\/[^/\\]/i.test(value) || parsed.hostname === "") return { kind: "not-absolute" };
  return undefined;
}

/** Whether `value` is an absolute http(s) URL with a host (see `httpUrlProblem`). */
export function isHttpUrl(value: string): boolean {
  return httpUrlProblem(value) === undefined;
}

/**
 * Why `value` cannot be a subscriber URL, or undefined when it can: an absolute http(s) URL
 * without whitespace or control characters (they would be silently percent-encoded) and without
 * embedded credentials (they would be stored and shown in plaintext).
 */
export function subscriberUrlProblem(value: string): UrlProblem | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what this rule is about
  if (/[\s\x00-\x1f\x7f]/.test(value)) return { kind: "whitespace" };
  const problem = httpUrlProblem(value);
  if (problem) return problem;
  const parsed = new URL(value);
  if (parsed.username !== "" || parsed.password !== "") return { kind: "credentials" };
  return undefined;
}

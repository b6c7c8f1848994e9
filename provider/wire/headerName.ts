/**
 * The custom header's name rules. Kept free of zod and of everything else, because the receiver
 * entry (node built-ins only) checks header names with them too.
 */

/** The custom header name as the service saves it: spaces become hyphens. */
export function normalizeHeaderName(name: string): string {
  return name.replace(/ /g, "-");
}

/** RFC 9110 token characters: what an HTTP header name may hold. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `name` is a valid HTTP header name (check it after `normalizeHeaderName`). */
export function isHeaderName(name: string): boolean {
  return HEADER_TOKEN.test(name);
}

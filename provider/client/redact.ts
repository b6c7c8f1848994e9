/**
 * Credential redaction. Errors, log lines and anything serialised pass through `redact`
 * when they are built, so a token or client secret can never reach a terminal, a CI log
 * or Pulumi state (octokit's request-error does the same for `Authorization`).
 */

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * Secrets shorter than this are not replaced verbatim: replacing every "1" or "ab" in a
 * message would make it unreadable, and a value that short protects nothing anyway.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * Credential shapes recognised without knowing the value: bearer credentials (RFC 6750
 * b64token; the prose "bearer token" and placeholders like `<token>` are left alone) and
 * OAuth fields in JSON or form bodies.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer)\s+(?!tokens?\b)[A-Za-z0-9\-._~+/]+=*/gi, `$1 ${REDACTED}`],
  [/("?\b(?:access_token|refresh_token|id_token|client_secret)"?\s*[:=]\s*"?)[^"&\s,}]+/gi, `$1${REDACTED}`],
  // Subscriptions quoted from a response body (e.g. one that failed to decode) carry their secrets.
  [/("(?:Signature|CustomHeaderValue)"\s*:\s*")(?:[^"\\]|\\.)*/g, `$1${REDACTED}`],
];

/**
 * Replaces every known secret value and every credential-shaped substring of `text`
 * with `[REDACTED]`.
 *
 * @param secrets values to remove wherever they appear (tokens, client secrets, header values).
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

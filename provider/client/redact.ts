/**
 * Credential redaction. Every error field, log line and anything serialised passes through
 * `redact` when it is built, so a token, client secret, Signature or custom header value can
 * never reach a terminal, a CI log or Pulumi state (octokit's request-error does the same for
 * `Authorization`).
 *
 * Two nets, applied to the whole text before anything is cut from it:
 * - known secret values (token, issued OAuth tokens, client secret, header values, URL
 *   credentials), matched case-insensitively (a Signature GUID may come back upper-cased);
 * - credential-shaped substrings whose value is not known: `Bearer …`, and the value of a
 *   secret key (signature, customHeaderValue, access_token, client_secret, password, …, any
 *   letter case) in JSON, form/query, XML and header positions, and URL userinfo and query values.
 *
 * Short secrets: a known value of 4 or more characters is replaced wherever it appears. One of
 * 1 to 3 characters is replaced wherever it stands as a whole word (not inside a longer run of
 * letters and digits): replacing every "1" inside "401" would garble messages and codes
 * without hiding anything, since "401" does not reveal which of its characters is the secret.
 */

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/** Secrets at least this long are replaced anywhere, shorter ones only as whole words. */
const SHORT_SECRET_LENGTH = 4;

/** Known secret values; an iterable so that a live list (tokens issued later) is read when redacting. */
export type Secrets = Iterable<string | null | undefined>;

/** Key names whose value is a secret (case-insensitive), as they appear in bodies and headers. */
const KEY = String.raw`(?:[\w-]*signature|customheadervalue|[\w-]*token|[\w-]*secret|password|authorization|api[-_]?key)`;

const SECRET_KEY = new RegExp(`^${KEY}$`, "i");

/** Whether a field of this name holds a secret (`Signature`, `customHeaderValue`, `client_secret`, …). */
export function isSecretKey(name: PropertyKey): boolean {
  return typeof name === "string" && SECRET_KEY.test(name);
}

/** The parts of a URL that carry credentials: userinfo and query values, whatever the parameter. */
function redactUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]+@/i, `$1${REDACTED}@`)
    .replace(/([?&][^=&#]*=)[^&#]*/g, `$1${REDACTED}`);
}

/**
 * Values in secret-key positions, recognised without knowing the value (group 2 is the value).
 * The prose "bearer token" and placeholders like `<token>` are left alone; JSON null stays null.
 */
const KEY_VALUE_PATTERNS: readonly RegExp[] = [
  /\b(Bearer\s+|Basic\s+)(?!tokens?\b)([^\s"'<>]+)/gi,
  // JSON: "Signature": "…" (also a value cut short, or not a string).
  new RegExp(String.raw`("${KEY}"\s*:\s*)(?!null\b)("(?:[^"\\]|\\.)*"?|[^\s,}\]]+)`, "gi"),
  // JSON inside a JSON string: \"Signature\":\"…\"
  new RegExp(String.raw`(\\+"${KEY}\\+"\s*:\s*)(?!null\b)(\\+"(?:[^"\\]|\\(?!\\*"))*(?:\\+")?|[^\s,}\]\\]+)`, "gi"),
  // Form and query: client_secret=…
  new RegExp(String.raw`(\b${KEY}=)([^&\s"'<>]+)`, "gi"),
  // XML: <Signature>…</Signature> (a value with a letter or digit; "<token>." is a placeholder)
  new RegExp(String.raw`(<${KEY}(?:\s[^>]*)?>)((?=[^<]*[\p{L}\p{N}])[^<]+)`, "giu"),
  // Header lines: Authorization: …, x-service-signature: …, client_secret: …
  new RegExp(String.raw`(\b${KEY}[ \t]*:[ \t]*)((?!Bearer\b|Basic\b)[^\s"'<>]+)`, "gi"),
];

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** The quote that opens a JSON string value, escaped or not: `"` or `\"`; empty when unquoted. */
function openingQuote(value: string): string {
  return /^\\*"/.exec(value)?.[0] ?? "";
}

/** A value as found in a key position, without its quotes, and JSON-decoded when it was a plain string. */
function foundValues(raw: string): string[] {
  const quote = openingQuote(raw);
  if (quote === "") return [raw];
  const inner =
    raw.length > quote.length && raw.endsWith(quote) ? raw.slice(quote.length, -quote.length) : raw.slice(quote.length);
  try {
    return [inner, JSON.parse(`"${inner}"`) as string];
  } catch {
    return [inner];
  }
}

/**
 * The values that stand in secret-key positions of `text` (a Signature in a JSON body, a
 * token in a form, URL userinfo and query values): once seen there, they are hidden wherever else they appear too (an
 * `Error` text that repeats the Signature).
 */
export function harvestSecrets(text: string | undefined): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const pattern of KEY_VALUE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      for (const value of foundValues(match[2] ?? "")) if (value !== "") found.add(value);
    }
  }
  for (const [url] of text.matchAll(URL_PATTERN)) {
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+)@/i.exec(url)?.[1];
    for (const part of userinfo?.split(":") ?? []) if (part !== "") found.add(part);
    for (const [, value] of url.matchAll(/[?&][^=&#]*=([^&#]*)/g)) if (value) found.add(value);
  }
  return [...found].filter((value) => !value.includes(REDACTED));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Secrets, longest first so that a secret containing another is replaced whole. */
function secretList(secrets: Secrets): string[] {
  const list: string[] = [];
  for (const secret of secrets) if (typeof secret === "string" && secret.length > 0) list.push(secret);
  return list.sort((a, b) => b.length - a.length);
}

/** One regular expression per secret: anywhere when long, as a whole word when short. */
function secretPattern(secret: string): RegExp {
  const escaped = escapeRegExp(secret);
  return new RegExp(
    secret.length >= SHORT_SECRET_LENGTH ? escaped : String.raw`(?<![\p{L}\p{N}])${escaped}(?![\p{L}\p{N}])`,
    "giu",
  );
}

/**
 * The marker, unless a secret would be found inside it (a secret "RED" or "]"); then a
 * character no secret is, so the marker can never re-introduce a secret.
 */
function markerFor(secrets: readonly string[]): string {
  const inside = (marker: string) => secrets.some((s) => secretPattern(s).test(marker));
  if (!inside(REDACTED)) return REDACTED;
  for (let code = 0x2588; ; code++) {
    const marker = String.fromCodePoint(code).repeat(3);
    if (!inside(marker)) return marker;
  }
}

/**
 * Replaces every occurrence of the known secrets, overlapping ones included, until none is
 * left: a replacement can join two pieces of text into a new occurrence, and each pass
 * hides at least one more character, so this ends.
 */
function replaceKnown(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const patterns = secrets.map(secretPattern);
  const marker = markerFor(secrets);
  let out = text;
  for (;;) {
    const hidden = new Uint8Array(out.length);
    let found = false;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(out); match !== null; match = pattern.exec(out)) {
        hidden.fill(1, match.index, match.index + match[0].length);
        found = true;
        pattern.lastIndex = match.index + 1;
      }
    }
    if (!found) return out;
    let next = "";
    for (let start = 0; start < out.length;) {
      let end = start;
      const hiddenRun = hidden[start] === 1;
      while (end < out.length && (hidden[end] === 1) === hiddenRun) end++;
      next += hiddenRun ? marker : out.slice(start, end);
      start = end;
    }
    out = next;
  }
}

/**
 * Replaces every known secret value and every credential-shaped substring of `text` with
 * `[REDACTED]`.
 *
 * @param secrets values to remove wherever they appear (tokens, client secrets, header values).
 */
export function redact(text: string, secrets: Secrets = []): string {
  let out = text.replace(URL_PATTERN, redactUrl);
  for (const pattern of KEY_VALUE_PATTERNS) {
    out = out.replace(pattern, (_match, key: string, value: string) => {
      const quote = openingQuote(value);
      return `${key}${quote}${REDACTED}${quote}`;
    });
  }
  return replaceKnown(out, secretList(secrets));
}

/**
 * Redacts `text`, then shortens it to `max` characters: cutting first could split a secret
 * so that neither half is recognised any more.
 */
export function redactAndCut(text: string, max: number, secrets: Secrets = [], ellipsis = ""): string {
  const list = secretList(secrets);
  // A megabyte HTML page is not scanned whole: a window far past the cut holds every secret
  // that straddles it, and the key patterns also catch a value the window cuts short.
  const window = text.length > 4 * max ? text.slice(0, 4 * max + (list[0]?.length ?? 0)) : text;
  const redacted = redact(window, list);
  if (redacted.length <= max && window === text) return redacted;
  // The cut can leave a short secret standing alone at the end, so the result is redacted again.
  return redact(`${redacted.slice(0, max)}${ellipsis}`, list);
}

/** What lies deeper than this in a value is not looked at. */
const MAX_DEPTH = 8;

/**
 * Every text a secret-bearing value holds, whatever its type: the value itself when it is a
 * string, the digits of a number, the text of a Buffer, and the same, deeply, inside arrays and
 * objects. A secret field given the wrong type (an array holding the header value) is still a
 * secret, and these are the values to hide wherever they reappear.
 */
export function secretTexts(value: unknown): string[] {
  const found: string[] = [];
  const walk = (item: unknown, level: number): void => {
    if (typeof item === "string") found.push(item);
    else if (typeof item === "number" || typeof item === "bigint") found.push(String(item));
    else if (typeof item !== "object" || item === null || level >= MAX_DEPTH) return;
    else if (ArrayBuffer.isView(item))
      found.push(Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString());
    else for (const entry of Array.isArray(item) ? item : Object.values(item)) walk(entry, level + 1);
  };
  walk(value, 0);
  return found.filter((text) => text !== "");
}

/**
 * A copy of `value` with every string in it redacted: arrays and plain objects deeply (for
 * validation messages and zod issues), numbers and booleans replaced when their text holds a
 * secret. Whatever stands under a secret key (`Signature`, `customHeaderValue`, …) is replaced
 * whole, whatever its type (null stays null); binary data is replaced too. Depth is bounded;
 * what lies deeper is dropped rather than kept unredacted.
 */
export function redactDeep<T>(value: T, secrets: Secrets, depth = MAX_DEPTH): T {
  const list = secretList(secrets);
  const walk = (item: unknown, level: number): unknown => {
    if (typeof item === "string") return redact(item, list);
    if (typeof item === "number" || typeof item === "boolean" || typeof item === "bigint") {
      const text = String(item);
      return redact(text, list) === text ? item : REDACTED;
    }
    if (typeof item !== "object" || item === null) return item;
    if (level >= depth || ArrayBuffer.isView(item) || item instanceof ArrayBuffer) return REDACTED;
    if (Array.isArray(item)) return item.map((entry) => walk(entry, level + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item)) {
      copy[redact(key, list)] = isSecretKey(key) && entry !== null && entry !== "" ? REDACTED : walk(entry, level + 1);
    }
    return copy;
  };
  return walk(value, 0) as T;
}

/** A zod issue as far as redaction is concerned: where it is, what it saw, and nested issues of a union. */
interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly input?: unknown;
  readonly errors?: readonly (readonly IssueLike[])[];
}

/**
 * Issues (zod's, with `reportInput`) whose `input` is dropped, whatever its type, where the
 * path runs through a secret field (`CustomHeaderValue`, `Signature`, …): the value the field
 * was given is the secret, even when it is not a string. Nested union issues likewise, their
 * paths continuing their parent's.
 */
export function withoutSecretInputs<T extends IssueLike>(
  issues: readonly T[],
  parentPath: readonly PropertyKey[] = [],
): T[] {
  return issues.map((issue) => {
    const path = [...parentPath, ...issue.path];
    const copy = { ...issue };
    if ("input" in issue && path.some(isSecretKey)) Object.assign(copy, { input: REDACTED });
    if (issue.errors) Object.assign(copy, { errors: issue.errors.map((branch) => withoutSecretInputs(branch, path)) });
    return copy;
  });
}

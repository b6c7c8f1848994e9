/**
 * Reading request headers the same way whatever shape they arrive in: Node's
 * `IncomingHttpHeaders` (lower-case keys, arrays for repeated headers), a hand-built record
 * (any case), or a WHATWG `Headers` (fetch, undici, edge runtimes). Anything else, and any
 * value no HTTP stack produces (a number, an object, null), is a `MalformedHeaders`: the
 * headers come from the network, so they are hostile input, never a reason to crash.
 */

/** The part of a WHATWG `Headers` that verification uses. */
export interface HeadersReader {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

/** A header record such as Node's `IncomingHttpHeaders`; keys are matched case-insensitively. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What `verifySignature` accepts as the message's headers. */
export type HeadersLike = HeadersReader | HeaderRecord;

/** Headers that no HTTP stack produces. `reason` names types and header names, never a value. */
export class MalformedHeaders extends Error {
  override readonly name = "MalformedHeaders";
  constructor(
    /** The header at fault, or `"(headers)"` for the headers as a whole. */
    readonly header: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** `null`, `"number"`, `"array"`, … : what a value is, without showing it. */
function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

/** The headers, if they are an object of header names or a `Headers`; throws `MalformedHeaders` otherwise. */
function checked(headers: unknown): HeadersLike {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new MalformedHeaders("(headers)", `the headers are ${kindOf(headers)}, not an object of header names`);
  }
  return headers as HeadersLike;
}

/** A header value as a string, or `MalformedHeaders`. */
function stringValue(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  throw new MalformedHeaders(name, `the ${JSON.stringify(name)} header has ${kindOf(value)} value, not a string`);
}

function isHeadersReader(headers: HeadersLike): headers is HeadersReader {
  return (
    typeof (headers as Partial<HeadersReader>).get === "function" &&
    typeof (headers as Partial<HeadersReader>).forEach === "function"
  );
}

/**
 * Every value of header `name`, compared case-insensitively. More than one value means the
 * header was repeated, which the caller must treat as suspicious rather than pick one.
 * A WHATWG `Headers` joins repeats into one value, so it yields at most one.
 *
 * @throws MalformedHeaders for headers or a value of this header that no HTTP stack produces.
 */
export function headerValues(headers: HeadersLike, name: string): string[] {
  const wanted = name.toLowerCase();
  const source = checked(headers);
  if (isHeadersReader(source)) {
    const value: unknown = source.get(wanted);
    return value === null || value === undefined ? [] : [stringValue(value, wanted)];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(source) as [string, unknown][]) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) values.push(stringValue(item, key));
    else values.push(stringValue(value, key));
  }
  return values;
}

/** The names of the headers present, lower-cased, in order, without repeats. */
export function headerNames(headers: HeadersLike): string[] {
  const names = new Set<string>();
  const source = checked(headers);
  if (isHeadersReader(source)) source.forEach((_value, name) => names.add(String(name).toLowerCase()));
  else for (const [key, value] of Object.entries(source)) if (value !== undefined) names.add(key.toLowerCase());
  return [...names];
}

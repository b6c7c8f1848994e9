/**
 * Reading request headers the same way whatever shape they arrive in: Node's
 * `IncomingHttpHeaders` (lower-case keys, arrays for repeated headers), a hand-built record
 * (any case), or a WHATWG `Headers` (fetch, undici, edge runtimes).
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
 */
export function headerValues(headers: HeadersLike, name: string): string[] {
  const wanted = name.toLowerCase();
  if (isHeadersReader(headers)) {
    const value = headers.get(wanted);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === "string") values.push(value);
    else values.push(...value);
  }
  return values;
}

/** The names of the headers present, lower-cased, in order, without repeats. */
export function headerNames(headers: HeadersLike): string[] {
  const names = new Set<string>();
  if (isHeadersReader(headers)) headers.forEach((_value, name) => names.add(name.toLowerCase()));
  else for (const [key, value] of Object.entries(headers)) if (value !== undefined) names.add(key.toLowerCase());
  return [...names];
}

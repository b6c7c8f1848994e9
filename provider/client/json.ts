/** Lenient JSON parsing for response bodies, which may be plain text or HTML on error paths. */

/** The parsed value, or undefined when `text` is not JSON (JSON itself can never yield undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Text made safe for the JUnit XML and the HTML page: the two share the same five characters, so
 * one helper serves both, in element text and in quoted attribute values alike.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Characters XML 1.0 cannot hold at all, not even as references. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/**
 * `text` with `& < > " '` as entities, and with the characters XML cannot hold dropped: a value
 * read from an instance may carry one, and a JUnit reader would refuse the whole file for it.
 */
export function escapeMarkup(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

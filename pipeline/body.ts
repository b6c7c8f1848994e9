/**
 * The body of a review's comment or issue: the marker on its first line, then the review's
 * markdown, cut under the platform's limit with a pointer to the full report when it is too long.
 */
import { FOOTER_LINE, render, type Review } from "../drift";

/** Whether two bodies say the same thing, the review's duration aside: an unchanged one is not written again. */
export function sameContent(a: string, b: string): boolean {
  const plain = (text: string) => text.replace(FOOTER_LINE, "").replace(/\r\n/g, "\n").trim();
  return plain(a) === plain(b);
}

/** `review`'s body under `marker`: its markdown folded to fit `limit` (as GitLab's is larger than GitHub's), then bodyOf. */
export function reviewBody(marker: string, review: Review, limit: number, fullReport?: string): string {
  return bodyOf(marker, render(review, "md", { maxChars: limit - marker.length - 1 }), limit, fullReport);
}

/**
 * `marker`, then `markdown`, at most `limit` characters: when longer, cut at a line and ended by
 * a note pointing at `fullReport` (the run's URL, whose artifacts hold the report), or at the
 * `--report` files when there is no URL.
 */
export function bodyOf(marker: string, markdown: string, limit: number, fullReport?: string): string {
  const whole = `${marker}\n${markdown.trimEnd()}\n`;
  if (whole.length <= limit) return whole;
  const where = fullReport
    ? `the full report is with the run: ${fullReport}`
    : "the full report is the run's `--report` files";
  const note = `\n\n*… cut to fit the platform's limit of ${limit.toLocaleString("en-US")} characters; ${where}*\n`;
  const room = limit - note.length;
  const cut = whole.lastIndexOf("\n", room);
  return `${whole.slice(0, cut > marker.length ? cut : room)}${note}`;
}

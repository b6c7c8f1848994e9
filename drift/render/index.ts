/**
 * The review's formats, chosen by name (`--format`) or by a report file's extension (`--report`):
 * each a small renderer over the one model (drift/review/model.ts); a new format never touches
 * the analysis.
 */
import type { MarkdownOptions } from "../markdown";
import type { Review } from "../review/model";
import { renderHtml } from "./html";
import { renderJunit } from "./junit";
import { renderMarkdown } from "./markdown";
import { renderSarif } from "./sarif";

/** The formats, as `--format` names them. */
export const FORMATS = ["md", "json", "sarif", "junit", "html"] as const;
export type Format = (typeof FORMATS)[number];

/** A report file's format by its extension (`.xml` is JUnit's). */
export const EXTENSIONS: Readonly<Record<string, Format>> = {
  ".md": "md",
  ".json": "json",
  ".sarif": "sarif",
  ".xml": "junit",
  ".html": "html",
};

/** What the renderers may need beyond the review. */
export interface RenderOptions extends MarkdownOptions {
  /** This tool's version, which SARIF states. */
  readonly version?: string;
}

/** The review in `format`, ending in a newline. */
export function render(review: Review, format: Format, options: RenderOptions = {}): string {
  const text = {
    md: () => renderMarkdown(review, options),
    json: () => JSON.stringify(review, null, 2),
    sarif: () => renderSarif(review, options),
    junit: () => renderJunit(review),
    html: () => renderHtml(review),
  }[format]();
  return text.endsWith("\n") ? text : `${text}\n`;
}

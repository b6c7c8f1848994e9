/**
 * The review's formats, chosen by name (`--format`) or by a report file's extension (`--report`):
 * each a small renderer over the one model (drift/review/model.ts); a new format never touches
 * the analysis.
 */
import { basename } from "node:path";
import type { Review } from "../review/model";
import { renderCodeQuality } from "./codequality";
import { renderHtml } from "./html";
import { renderJunit } from "./junit";
import { renderMarkdown, type MarkdownOptions } from "./markdown";
import { renderSarif, type SarifOptions } from "./sarif";

/** The formats, as `--format` names them. */
export const FORMATS = ["md", "json", "sarif", "junit", "html", "codequality"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * A report file's format by the end of its name (`.xml` is JUnit's): the longest that matches, so
 * `x.codequality.json` is GitLab Code Quality and `x.json` the review's JSON (formatOfFile).
 */
export const EXTENSIONS: Readonly<Record<string, Format>> = {
  ".md": "md",
  ".json": "json",
  ".sarif": "sarif",
  ".xml": "junit",
  ".html": "html",
  ".codequality.json": "codequality",
};

/**
 * The format a `--report` file's name asks for, whatever its case: the longest suffix of
 * EXTENSIONS it ends with, after at least one character of its own (`.json` alone, like a dot
 * file, has no extension); undefined when none does.
 */
export function formatOfFile(file: string): Format | undefined {
  const name = basename(file).toLowerCase();
  const suffix = Object.keys(EXTENSIONS)
    .filter((ext) => name.length > ext.length && name.endsWith(ext))
    .sort((a, b) => b.length - a.length)[0];
  return suffix === undefined ? undefined : EXTENSIONS[suffix];
}

/**
 * What the renderers may need beyond the review, all computed by the caller: `version`, this
 * tool's version, which SARIF states; `rerun`, the command that runs the review again, and
 * `fullReport`, the command that prints it whole as JSON, which the markdown prints.
 */
export interface RenderOptions extends MarkdownOptions, SarifOptions {}

/** The review in `format`, ending in a newline. */
export function render(review: Review, format: Format, options: RenderOptions = {}): string {
  const text = {
    md: () => renderMarkdown(review, options),
    json: () => JSON.stringify(review, null, 2),
    sarif: () => renderSarif(review, options),
    junit: () => renderJunit(review),
    html: () => renderHtml(review),
    codequality: () => renderCodeQuality(review),
  }[format]();
  return text.endsWith("\n") ? text : `${text}\n`;
}

/**
 * The review's formats, chosen by name (`--format`) or by a report file's extension (`--report`):
 * each a small renderer over the one model (drift/review/model.ts); a new format never touches
 * the analysis.
 */
import type { Invocation } from "../invocation";
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
export interface RenderOptions {
  /** This tool's version, which SARIF states. */
  readonly version?: string;
  /** How the commands the markdown prints run the tool (drift/invocation.ts); the npm package's by default. */
  readonly invocation?: Invocation;
  /** The review's `--cwd`, as given: the commands the markdown prints repeat it, so they run from where this one ran. */
  readonly programDir?: string;
  /**
   * The review's flags as given (drift's `reviewFlags`): the closing command of a review that no
   * stack's report closes (Terraform sources alone) runs it again with them.
   */
  readonly reviewFlags?: readonly string[];
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

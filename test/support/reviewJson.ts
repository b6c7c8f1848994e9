/**
 * The one way a test reads a drift review's JSON report: parsed, then validated against the JSON
 * Schema of docs/reference/drift-report.md (its one `json` block), so that every JSON report the
 * test suite writes holds to the documented format, and a test that reads one learns at once,
 * by the schema's own words, where it does not.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Review } from "../../drift/review/model";
import { REPO_ROOT } from "./engine";
import { shellBlocks } from "./shellBlocks";

/** The reference page that holds the schema. */
export const REPORT_SCHEMA_PAGE = join(REPO_ROOT, "docs", "reference", "drift-report.md");

/** The schema, read from the page; throws unless the page holds exactly one `json` block. */
export function reportSchema(): Record<string, unknown> {
  const blocks = shellBlocks(readFileSync(REPORT_SCHEMA_PAGE, "utf8"), "json");
  if (blocks.length !== 1)
    throw new Error(`docs/reference/drift-report.md: expected one json block (the schema), found ${blocks.length}`);
  return JSON.parse(blocks[0]!.script) as Record<string, unknown>;
}

/** The schema compiled once, every error reported, formats (date-time, date) checked. */
const validate = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(reportSchema());
})();

/** An error as a person reads it: where, what, and for an unknown property its name. */
function errorText(e: ErrorObject): string {
  const extra = e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : "";
  return `${e.instancePath || "/"} ${e.message ?? e.keyword}${extra}`;
}

/** What is wrong with `value` as a version 3 review, by the schema; empty when nothing is. */
export function reviewErrors(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map(errorText);
}

/** A JSON report's text as a review; throws naming each schema error when it does not hold to the schema. */
export function parseReview(text: string): Review {
  const value: unknown = JSON.parse(text);
  const errors = reviewErrors(value);
  if (errors.length > 0)
    throw new Error(`The JSON report does not hold to docs/reference/drift-report.md:\n${errors.join("\n")}`);
  return value as Review;
}

/** A JSON report file as a review, validated as parseReview validates it. */
export function readReview(file: string): Review {
  return parseReview(readFileSync(file, "utf8"));
}

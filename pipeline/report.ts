/**
 * `--report <review.json>`: the JSON report of a drift review (`drift --report review.json`),
 * read and checked to be version 3 before any request is sent.
 */
import { readFileSync } from "node:fs";
import { REVIEW_VERSION, type Review } from "../drift";
import { PipelineInputError } from "./errors";

/** The review in `path` (`file` as the user gave it, for messages). */
export function readReviewReport(path: string, file: string): Review {
  const say = (what: string) =>
    new PipelineInputError(
      `--report ${file}: ${what}. Give the JSON report of a drift review: \`webhook-subscriptions drift … --report review.json\`.`,
    );
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw say(`cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: Partial<Review> | null;
  try {
    json = JSON.parse(text) as Partial<Review> | null;
  } catch (err) {
    throw say(`not JSON (${(err as Error).message})`);
  }
  if (json?.version !== REVIEW_VERSION)
    throw say(`not a review report of version ${REVIEW_VERSION} (it has version ${JSON.stringify(json?.version)})`);
  if (!Array.isArray(json.sources) || !Array.isArray(json.findings) || typeof json.status !== "string")
    throw say("not a review report (it has no sources, findings or status)");
  return json as Review;
}

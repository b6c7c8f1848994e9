/**
 * A short, stable name for the set of sources a review covers: the same sources give the same
 * hash whatever their order on the command line. The pipeline's comment marker and the SARIF
 * run's category both use it, so each cell of a CI matrix keeps its own comment and its own alerts.
 */
import { createHash } from "node:crypto";
import type { Review } from "../review/model";

/** 12 hex digits of SHA-256 over the sorted `kind:name` lines of the review's sources. */
export function sourcesHash(review: Pick<Review, "sources">): string {
  const lines = review.sources.map((s) => `${s.source.kind}:${s.source.name}`).sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
}

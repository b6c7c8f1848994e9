/**
 * The hidden marker that names a review's comment and its drift issue: a short, stable hash of the
 * review's sources (kind and name, sorted), so a review of the same sources finds its own comment
 * again, whatever their order on the command line, and each stack of a matrix keeps its own.
 */
import { createHash } from "node:crypto";
import type { Review } from "../drift";

/** 12 hex digits of SHA-256 over the sorted `kind:name` lines of the review's sources. */
export function sourcesHash(review: Pick<Review, "sources">): string {
  const lines = review.sources.map((s) => `${s.source.kind}:${s.source.name}`).sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
}

/** `<!-- webhook-subscriptions drift: <sources hash> -->`, the first line of every body this module writes. */
export function markerOf(review: Pick<Review, "sources">): string {
  return `<!-- webhook-subscriptions drift: ${sourcesHash(review)} -->`;
}

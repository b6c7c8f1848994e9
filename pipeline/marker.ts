/**
 * The hidden marker that names a review's comment and its drift issue: the hash of the review's
 * sources (drift's sourcesHash), so a review of the same sources finds its own comment again,
 * whatever their order on the command line, and each stack of a matrix keeps its own.
 */
import { sourcesHash, type Review } from "../drift";

/** `<!-- webhook-subscriptions drift: <sources hash> -->`, the first line of every body this module writes. */
export function markerOf(review: Pick<Review, "sources">): string {
  return `<!-- webhook-subscriptions drift: ${sourcesHash(review)} -->`;
}

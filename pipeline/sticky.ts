/**
 * The review's one comment on a pull request or merge request (as marocchino's sticky comment
 * does it): found by its marker across every page of comments, edited in place, posted when there
 * is none, left alone when it would not change. `--behavior new` posts a new one every time.
 */
import type { Review } from "../drift";
import { reviewBody, sameContent } from "./body";
import { markerOf } from "./marker";
import type { CommentThread, ThreadComment } from "./thread";

/** `update`: one comment, edited in place; `new`: a new comment every run. */
export const BEHAVIORS = ["update", "new"] as const;
export type Behavior = (typeof BEHAVIORS)[number];

/** What became of the comment. */
export interface StickyOutcome {
  readonly action: "created" | "updated" | "unchanged";
  readonly comment: ThreadComment;
}

export interface StickyOptions {
  readonly behavior: Behavior;
  /** Where the full report is (the run's URL), for a body cut to fit. */
  readonly fullReport?: string;
}

/** Posts or edits `review`'s comment on `thread`. */
export async function postReviewComment(
  thread: CommentThread,
  review: Review,
  options: StickyOptions,
): Promise<StickyOutcome> {
  const marker = markerOf(review);
  const body = reviewBody(marker, review, thread.limit, options.fullReport);
  if (options.behavior === "new") return { action: "created", comment: await thread.create(body) };
  const existing = (await thread.list()).find((comment) => comment.body.includes(marker));
  if (!existing) return { action: "created", comment: await thread.create(body) };
  if (sameContent(existing.body, body)) return { action: "unchanged", comment: existing };
  return { action: "updated", comment: await thread.update(existing.id, body) };
}

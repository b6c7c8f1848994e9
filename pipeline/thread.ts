/**
 * A conversation a review's comment lives in (a GitHub pull request, a GitLab merge request), as
 * the sticky comment sees it, whatever the platform.
 */

/** One comment or note: its id, its body, and where to read it when the API says. */
export interface ThreadComment {
  readonly id: number;
  readonly body: string;
  readonly url?: string;
}

/** The comments of one pull request or merge request. */
export interface CommentThread {
  /** `pull request #7`, `merge request !7`. */
  readonly title: string;
  /** The longest body the platform takes. */
  readonly limit: number;
  /** Every comment, across every page, oldest first. */
  list(): Promise<ThreadComment[]>;
  create(body: string): Promise<ThreadComment>;
  update(id: number, body: string): Promise<ThreadComment>;
}

/**
 * The pipeline commands' work (`comment github|gitlab`, `issue github`): the review's marker, the
 * sticky comment, the drift issue, GitHub's and GitLab's APIs through undici, and the CI's
 * variables. Built on the drift review's model and its markdown (drift/index.ts); the command line
 * (cli/comment.ts, cli/issue.ts) reaches it only here.
 */
export { PipelineApiError, PipelineInputError } from "./errors";
export { markerOf } from "./marker";
export { readReviewReport } from "./report";
export { bodyOf, sameContent } from "./body";
export { GitHubClient, GITHUB_BODY_LIMIT } from "./github";
export { mergeRequestThread, GITLAB_BODY_LIMIT } from "./gitlab";
export { BEHAVIORS, postReviewComment, type Behavior, type StickyOutcome } from "./sticky";
export { DEFAULT_LABEL, keepDriftIssue, type IssueOutcome } from "./driftIssue";
export {
  githubEnvironment,
  gitlabEnvironment,
  pullRequestNumber,
  VARIABLE_NAME,
  type GitHubEnvironment,
  type GitLabEnvironment,
} from "./environment";
export type { CommentThread, ThreadComment } from "./thread";

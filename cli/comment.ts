/**
 * `webhook-subscriptions comment github|gitlab --report <review.json>`: the review's one comment on
 * the pull request (GitHub) or merge request (GitLab), as infracost's `comment` does it: found by
 * its marker across every page, edited in place, left alone when nothing changed (pipeline/).
 * Exit 0: posted, edited or unchanged; 1: bad input (before any request) or an API error.
 * The command line is parsed, then checked, then loaded (the report and the CI's variables read).
 */
import {
  BEHAVIORS,
  githubEnvironment,
  gitlabEnvironment,
  GitHubClient,
  mergeRequestThread,
  postReviewComment,
  pullRequestNumber,
  type Behavior,
  type CommentThread,
} from "../pipeline";
import type { Review } from "../drift";
import { parseTable, stringFlag, usageOf, UsageError, type Command, type FlagTable } from "./command";
import {
  checkPipelineFlags,
  pipelineCommand,
  platformOf,
  REPORT_FLAG,
  reportFlag,
  tokenEnvFlag,
} from "./pipelineCommand";

/** The comment command's flags: its usage and its parser. */
export const COMMENT_FLAGS = {
  report: REPORT_FLAG,
  behavior: {
    type: "string",
    arg: BEHAVIORS.join("|"),
    description:
      "update: one comment per review, edited in place and left alone when unchanged (default);\nnew: a new comment on every run",
  },
  "token-env": tokenEnvFlag("GITHUB_TOKEN, or GITLAB_TOKEN for gitlab"),
} as const satisfies FlagTable;

const PLATFORMS = ["github", "gitlab"] as const;
type Platform = (typeof PLATFORMS)[number];

const USAGE = usageOf(
  "comment github|gitlab",
  COMMENT_FLAGS,
  `Posts the drift review as one comment on the pull request (github) or merge request (gitlab). A hidden
marker names the review's sources; the comment that holds it is found across every page and edited in
place, and nothing is written when it would not change. A report too long for the platform is cut,
pointing at the run. Exit 0: done; 1: bad input or an API error (nothing is sent on bad input).`,
  `GitHub: GITHUB_TOKEN (or --token-env), GITHUB_REPOSITORY (owner/name), GITHUB_EVENT_PATH (the
pull_request event), GITHUB_API_URL (default https://api.github.com); GITHUB_SERVER_URL and GITHUB_RUN_ID
name the run. GitLab: GITLAB_TOKEN (or --token-env), CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID.
The token is sent in the Authorization header only, and never printed.`,
);

/** A comment command line, checked: nothing read yet. */
export interface CommentRequest {
  readonly platform: Platform;
  readonly report: string;
  readonly behavior: Behavior;
  readonly tokenEnv?: string;
}

/** Steps 1 and 2: parses and checks the command line, reading nothing; "help" when asked for. */
export function checkCommentArgs(argv: readonly string[]): CommentRequest | "help" {
  const split = platformOf(argv, "comment", PLATFORMS, USAGE);
  if (split === "help") return "help";
  const values = parseTable(split.flags, COMMENT_FLAGS, USAGE);
  if (values === "help") return "help";
  const behavior = stringFlag(values, "behavior") ?? "update";
  if (!(BEHAVIORS as readonly string[]).includes(behavior))
    throw new UsageError(
      `--behavior must be one of ${BEHAVIORS.join(", ")}, got ${JSON.stringify(behavior)}.\n${USAGE}`,
    );
  return { platform: split.platform, behavior: behavior as Behavior, ...checkPipelineFlags(values, USAGE) };
}

/** A comment command, loaded: the review read, the thread to comment on made from the CI's variables. */
export interface CommentArgs {
  readonly review: Review;
  readonly thread: CommentThread;
  readonly behavior: Behavior;
  readonly runUrl?: string;
}

/** Step 3: reads the report and the CI's variables; bad input throws before any request. */
export function loadCommentArgs(
  request: CommentRequest,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): CommentArgs {
  const review = reportFlag(request.report, env, cwd);
  if (request.platform === "github") {
    const github = githubEnvironment(env, request.tokenEnv);
    const thread = new GitHubClient(github.target, github.repository).pullRequest(pullRequestNumber(env));
    return { review, thread, behavior: request.behavior, ...(github.runUrl ? { runUrl: github.runUrl } : {}) };
  }
  const gitlab = gitlabEnvironment(env, request.tokenEnv);
  const thread = mergeRequestThread(gitlab.target, gitlab.project, gitlab.mergeRequest);
  return { review, thread, behavior: request.behavior, ...(gitlab.runUrl ? { runUrl: gitlab.runUrl } : {}) };
}

export const commentCommand: Command = pipelineCommand("comment", USAGE, {
  check: checkCommentArgs,
  load: (request) => loadCommentArgs(request),
  async act(args, request) {
    const { action, comment } = await postReviewComment(args.thread, args.review, {
      behavior: args.behavior,
      ...(args.runUrl ? { fullReport: args.runUrl } : {}),
    });
    const what = { created: "posted", updated: "edited", unchanged: "left unchanged (nothing changed)" }[action];
    return `comment ${request.platform}: ${what} the review's comment on ${args.thread.title}${comment.url ? `: ${comment.url}` : ""}`;
  },
});

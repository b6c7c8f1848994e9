/**
 * `webhook-subscriptions comment github|gitlab --report <review.json>`: the review's one comment on
 * the pull request (GitHub) or merge request (GitLab), as infracost's `comment` does it: found by
 * its marker across every page, edited in place, left alone when nothing changed (pipeline/).
 * Exit 0: posted, edited or unchanged; 1: bad input (before any request) or an API error.
 * The command line is parsed, then checked, then loaded (the report and the CI's variables read).
 */
import { resolve } from "node:path";
import {
  BEHAVIORS,
  githubEnvironment,
  gitlabEnvironment,
  GitHubClient,
  mergeRequestThread,
  PipelineApiError,
  PipelineInputError,
  postReviewComment,
  pullRequestNumber,
  readReviewReport,
  VARIABLE_NAME,
  type Behavior,
  type CommentThread,
} from "../pipeline";
import type { Review } from "../drift";
import { parseTable, stringFlag, usageOf, UsageError, type Command, type FlagTable, type FlagValues } from "./command";

/** The comment command's flags: its usage and its parser. */
export const COMMENT_FLAGS = {
  report: {
    type: "string",
    arg: "<review.json>",
    description: "the drift review's JSON report (`webhook-subscriptions drift … --report review.json`)",
  },
  behavior: {
    type: "string",
    arg: BEHAVIORS.join("|"),
    description:
      "update: one comment per review, edited in place and left alone when unchanged (default);\nnew: a new comment on every run",
  },
  "token-env": {
    type: "string",
    arg: "<NAME>",
    description: "the variable that holds the token (default: GITHUB_TOKEN, or GITLAB_TOKEN for gitlab)",
  },
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

/**
 * The platform word that leads a pipeline command's arguments, and the flags after it; "help"
 * when help was asked for. `command` and `platforms` name what the errors list.
 */
export function platformOf<P extends string>(
  argv: readonly string[],
  command: string,
  platforms: readonly P[],
  usage: string,
): { platform: P; flags: readonly string[] } | "help" {
  const [word, ...flags] = argv;
  if (word === "--help" || word === "-h") return "help";
  const choices = platforms.map((p) => `\`${command} ${p}\``).join(" or ");
  if (word === undefined || word.startsWith("-"))
    throw new UsageError(`name the platform first: ${choices}.\n${usage}`);
  if (!(platforms as readonly string[]).includes(word))
    throw new UsageError(`unknown platform ${JSON.stringify(word)}: use ${choices}.\n${usage}`);
  return { platform: word as P, flags };
}

/** `--report` (required) and `--token-env` (a variable's name), checked; shared by comment and issue. */
export function checkPipelineFlags(values: FlagValues, usage: string): { report: string; tokenEnv?: string } {
  const report = stringFlag(values, "report");
  if (!report)
    throw new UsageError(
      `--report is required: give the drift review's JSON report (\`drift … --report review.json\`).\n${usage}`,
    );
  const tokenEnv = stringFlag(values, "token-env");
  if (tokenEnv !== undefined && !VARIABLE_NAME.test(tokenEnv))
    throw new UsageError(`--token-env must name a variable (letters, digits, _), got ${JSON.stringify(tokenEnv)}.`);
  return { report, ...(tokenEnv === undefined ? {} : { tokenEnv }) };
}

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

/** `--report`'s review, read from where the user typed the command (`npm run` and `npx` leave it in INIT_CWD). */
export const reportFlag = (file: string, env: NodeJS.ProcessEnv, cwd: string): Review =>
  readReviewReport(resolve(env.INIT_CWD || cwd, file), file);

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

/** A pipeline command's steps: parse and check (nothing read), load (the report and the CI's variables), act. */
export interface PipelineSteps<Request, Args> {
  check(argv: readonly string[]): Request | "help";
  load(request: Request): Args;
  /** Sends the requests; resolves with the line to print. */
  act(args: Args, request: Request): Promise<string>;
}

/**
 * A pipeline command from its steps: bad input and API errors print their message (never a
 * token: pipeline/ leaves it out) and exit 1; bad input is found before any request is sent.
 */
export function pipelineCommand<Request, Args>(
  name: string,
  usage: string,
  steps: PipelineSteps<Request, Args>,
): Command {
  return {
    usage,
    async run(argv) {
      try {
        const request = steps.check(argv);
        if (request === "help") {
          process.stdout.write(`${usage}\n`);
          return 0;
        }
        process.stdout.write(`${await steps.act(steps.load(request), request)}\n`);
        return 0;
      } catch (err) {
        if (err instanceof UsageError || err instanceof PipelineInputError || err instanceof PipelineApiError) {
          process.stderr.write(`${name}: ${err.message}\n`);
          return 1;
        }
        throw err;
      }
    },
  };
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

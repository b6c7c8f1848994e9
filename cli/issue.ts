/**
 * `webhook-subscriptions issue github --report <review.json> [--label webhook-drift]`: keeps one
 * open drift issue per review's sources (pipeline/driftIssue.ts): opened on drift, its body updated
 * while the drift lasts, closed with a comment on a clean run; a failed review leaves it alone.
 * Exit 0: done; 1: bad input (before any request) or an API error.
 */
import type { Review } from "../drift";
import { DEFAULT_LABEL, githubEnvironment, GitHubClient, keepDriftIssue, type IssueOutcome } from "../pipeline";
import {
  checkPipelineFlags,
  pipelineCommand,
  platformOf,
  REPORT_FLAG,
  reportFlag,
  tokenEnvFlag,
} from "./pipelineCommand";
import { parseTable, stringFlag, usageOf, UsageError, type Command, type FlagTable } from "./command";

/** The issue command's flags: its usage and its parser. */
export const ISSUE_FLAGS = {
  report: REPORT_FLAG,
  label: {
    type: "string",
    arg: "<name>",
    description: `the drift issue's label (default: ${DEFAULT_LABEL})`,
  },
  "token-env": tokenEnvFlag("GITHUB_TOKEN"),
} as const satisfies FlagTable;

const USAGE = usageOf(
  "issue github",
  ISSUE_FLAGS,
  `Keeps one open drift issue per review's sources (a hidden marker names them): opens it when the review
finds drift, updates its body while the drift lasts (nothing is written when it would not change), and
closes it with a comment once a review is clean. A failed review leaves the issue as it is.
Exit 0: done; 1: bad input or an API error (nothing is sent on bad input).`,
  `GITHUB_TOKEN (or --token-env; the token needs \`issues: write\`), GITHUB_REPOSITORY (owner/name),
GITHUB_API_URL (default https://api.github.com); GITHUB_SERVER_URL and GITHUB_RUN_ID name the run.
The token is sent in the Authorization header only, and never printed.`,
);

/** An issue command line, checked: nothing read yet. */
export interface IssueRequest {
  readonly report: string;
  readonly label: string;
  readonly tokenEnv?: string;
}

/** Steps 1 and 2: parses and checks the command line, reading nothing; "help" when asked for. */
export function checkIssueArgs(argv: readonly string[]): IssueRequest | "help" {
  const split = platformOf(argv, "issue", ["github"], USAGE);
  if (split === "help") return "help";
  const values = parseTable(split.flags, ISSUE_FLAGS, USAGE);
  if (values === "help") return "help";
  const label = stringFlag(values, "label") ?? DEFAULT_LABEL;
  if (label.trim() === "" || label.includes(","))
    throw new UsageError(`--label must be one label's name (no comma), got ${JSON.stringify(label)}.`);
  return { label, ...checkPipelineFlags(values, USAGE) };
}

/** An issue command, loaded: the review read, the repository's client made from the CI's variables. */
export interface IssueArgs {
  readonly review: Review;
  readonly client: GitHubClient;
  readonly label: string;
  readonly runUrl?: string;
}

/** Step 3: reads the report and the CI's variables; bad input throws before any request. */
export function loadIssueArgs(
  request: IssueRequest,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): IssueArgs {
  const github = githubEnvironment(env, request.tokenEnv);
  return {
    review: reportFlag(request.report, env, cwd),
    client: new GitHubClient(github.target, github.repository),
    label: request.label,
    ...(github.runUrl ? { runUrl: github.runUrl } : {}),
  };
}

/** What a run did, in one line. */
function said({ action, issue }: IssueOutcome, label: string): string {
  const which = issue ? ` #${issue.number}${issue.html_url ? ` (${issue.html_url})` : ""}` : "";
  return {
    opened: `opened the drift issue${which}`,
    updated: `updated the drift issue${which}`,
    unchanged: `left the drift issue${which} unchanged (nothing changed)`,
    closed: `closed the drift issue${which}: the review is clean`,
    none: `no drift, and no open drift issue labelled ${label}`,
    left: `the review failed: the drift issue${which} is left as it is`,
  }[action];
}

export const issueCommand: Command = pipelineCommand("issue", USAGE, {
  check: checkIssueArgs,
  load: (request) => loadIssueArgs(request),
  async act(args) {
    const outcome = await keepDriftIssue(args.client, args.review, {
      label: args.label,
      ...(args.runUrl ? { runUrl: args.runUrl } : {}),
    });
    return `issue github: ${said(outcome, args.label)}`;
  },
});

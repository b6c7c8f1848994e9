/**
 * The CI's standard variables, read and checked before any request: GitHub Actions'
 * (`GITHUB_API_URL`, `GITHUB_REPOSITORY`, `GITHUB_EVENT_PATH`, `GITHUB_SERVER_URL`, `GITHUB_RUN_ID`)
 * and GitLab CI's (`CI_API_V4_URL`, `CI_PROJECT_ID`, `CI_MERGE_REQUEST_IID`, `CI_JOB_URL`), and the
 * token (`GITHUB_TOKEN`, `GITLAB_TOKEN`, or the variable `--token-env` names). Each error names
 * the variable and what to set; none holds a token.
 */
import { readFileSync } from "node:fs";
import { PipelineInputError } from "./errors";
import { GITHUB_HEADERS } from "./github";
import type { ApiTarget } from "./http";

type Env = Readonly<Record<string, string | undefined>>;

/** A variable's name, as `--token-env` takes it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The token in `--token-env`'s variable, else in `fallback`; `what` says what to set it to. */
function tokenOf(env: Env, tokenEnv: string | undefined, fallback: string, what: string) {
  const variable = tokenEnv ?? fallback;
  const token = env[variable]?.trim();
  if (token) return { token, tokenVariable: variable };
  throw new PipelineInputError(
    tokenEnv !== undefined
      ? `${variable} (named by --token-env) is not set or empty: set it to ${what}.`
      : `${variable} is not set: set it to ${what}, or name the variable that holds one with --token-env <NAME>.`,
  );
}

/** A URL as an error may show it: without the `user:password@` a URL can carry. */
const shownUrl = (value: string): string => value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@\s]*@/i, "$1");

/** An http(s) URL from `variable`, without its trailing slash; `fallback` when unset. */
function apiUrlOf(env: Env, variable: string, fallback?: string): string {
  const value = env[variable]?.trim() || fallback;
  if (!value) throw new PipelineInputError(`${variable} is not set: set it to the API's URL (GitLab CI sets it).`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PipelineInputError(
      `${variable} is not a URL (${JSON.stringify(shownUrl(value))}): set it to the API's URL.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new PipelineInputError(`${variable} must be an http(s) URL, got ${JSON.stringify(shownUrl(value))}.`);
  return value.replace(/\/+$/, "");
}

/** A CI's API, and the page of the run (GitHub: GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID; GitLab: CI_JOB_URL), when set. */
interface CiEnvironment {
  readonly target: ApiTarget;
  readonly runUrl?: string;
}

/** GitHub, as the environment names it. */
export interface GitHubEnvironment extends CiEnvironment {
  /** `owner/name`. */
  readonly repository: string;
}

/** GitHub's API, repository and token; `tokenEnv` is `--token-env`'s name. */
export function githubEnvironment(env: Env, tokenEnv?: string): GitHubEnvironment {
  const { token, tokenVariable } = tokenOf(
    env,
    tokenEnv,
    "GITHUB_TOKEN",
    "a token that may write pull requests and issues (in a workflow: `GITHUB_TOKEN: ${{ github.token }}`)",
  );
  const repository = env.GITHUB_REPOSITORY?.trim() ?? "";
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository))
    throw new PipelineInputError(
      repository
        ? `GITHUB_REPOSITORY must be owner/name, got ${JSON.stringify(repository)}: set it to the repository, e.g. octo-org/infra.`
        : "GITHUB_REPOSITORY is not set: set it to the repository as owner/name (GitHub Actions sets it).",
    );
  const apiUrl = apiUrlOf(env, "GITHUB_API_URL", "https://api.github.com");
  const { GITHUB_SERVER_URL: server, GITHUB_RUN_ID: runId } = env;
  return {
    target: { apiUrl, token, tokenVariable, apiVariable: "GITHUB_API_URL", headers: GITHUB_HEADERS },
    repository,
    ...(server && runId ? { runUrl: `${server.replace(/\/+$/, "")}/${repository}/actions/runs/${runId}` } : {}),
  };
}

/** The pull request's number from the event file (`pull_request.number`, or `issue.number` for a comment's event). */
export function pullRequestNumber(env: Env): number {
  const path = env.GITHUB_EVENT_PATH?.trim();
  const run = "run `comment github` in a workflow triggered by pull_request (GitHub Actions sets GITHUB_EVENT_PATH)";
  if (!path) throw new PipelineInputError(`GITHUB_EVENT_PATH is not set: ${run}.`);
  let event: { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown } };
  try {
    event = JSON.parse(readFileSync(path, "utf8")) as typeof event;
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new PipelineInputError(`GITHUB_EVENT_PATH ${path}: cannot read it as JSON (${why}): ${run}.`);
  }
  const number = event?.pull_request?.number ?? (event?.issue?.pull_request ? event.issue.number : undefined);
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1)
    throw new PipelineInputError(`GITHUB_EVENT_PATH ${path}: the event names no pull request: ${run}.`);
  return number;
}

/** GitLab, as the environment names it. */
export interface GitLabEnvironment extends CiEnvironment {
  /** `CI_PROJECT_ID`: a number or a `group/project` path. */
  readonly project: string;
  /** `CI_MERGE_REQUEST_IID`. */
  readonly mergeRequest: number;
}

/** GitLab's API, project, merge request and token; `tokenEnv` is `--token-env`'s name. */
export function gitlabEnvironment(env: Env, tokenEnv?: string): GitLabEnvironment {
  const { token, tokenVariable } = tokenOf(
    env,
    tokenEnv,
    "GITLAB_TOKEN",
    "a project or personal access token with the `api` scope (a masked CI/CD variable)",
  );
  const apiUrl = apiUrlOf(env, "CI_API_V4_URL");
  const project = env.CI_PROJECT_ID?.trim();
  if (!project)
    throw new PipelineInputError("CI_PROJECT_ID is not set: set it to the project's ID (GitLab CI sets it).");
  const iid = env.CI_MERGE_REQUEST_IID?.trim() ?? "";
  if (!/^[1-9]\d*$/.test(iid))
    throw new PipelineInputError(
      `CI_MERGE_REQUEST_IID ${iid ? `must be a number, got ${JSON.stringify(iid)}` : "is not set"}: run \`comment gitlab\` in a merge request pipeline (rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event").`,
    );
  return {
    target: { apiUrl, token, tokenVariable, apiVariable: "CI_API_V4_URL" },
    project,
    mergeRequest: Number(iid),
    ...(env.CI_JOB_URL ? { runUrl: env.CI_JOB_URL } : {}),
  };
}

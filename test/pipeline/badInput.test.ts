/**
 * Bad input to `comment` and `issue` exits 1 before any request, naming the flag or variable and
 * what to set; and a token never appears in what the commands print, whatever happens.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, markerOf, sameContent } from "../../pipeline";
import { SOURCES } from "../drift/fixtures/review";
import {
  githubEnv,
  gitlabEnv,
  runCli,
  scratch,
  startStandIn,
  TOKEN,
  writeEvent,
  writeReview,
  DRIFT,
  type StandIn,
} from "./standIn";

const drift = DRIFT;

describe("bad input exits 1 before any request", () => {
  let api: StandIn;
  let dir: string;
  let report: string;
  beforeAll(async () => {
    api = await startStandIn();
    dir = scratch();
    report = writeReview(dir, "review.json", drift);
  });
  afterAll(() => api.close());

  const without = (env: Record<string, string>, name: string) =>
    Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));

  /** [what, argv, env (a function of the stand-in's), what stderr must say] */
  const cases: [string, () => string[], () => Record<string, string>, string][] = [
    [
      "no token",
      () => ["comment", "github", "--report", report],
      () => without(githubEnv(api, dir), "GITHUB_TOKEN"),
      "GITHUB_TOKEN is not set: set it to a token that may write pull requests",
    ],
    [
      "an empty token",
      () => ["issue", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_TOKEN: " " }),
      "GITHUB_TOKEN is not set",
    ],
    [
      "no token in --token-env's variable",
      () => ["comment", "github", "--report", report, "--token-env", "MY_TOKEN"],
      () => githubEnv(api, dir),
      "MY_TOKEN (named by --token-env) is not set or empty",
    ],
    [
      "a --token-env that is no variable name",
      () => ["comment", "github", "--report", report, "--token-env", "my-token"],
      () => githubEnv(api, dir),
      '--token-env must name a variable (letters, digits, _), got "my-token"',
    ],
    [
      "a malformed GITHUB_REPOSITORY",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_REPOSITORY: "infra" }),
      'GITHUB_REPOSITORY must be owner/name, got "infra"',
    ],
    [
      "a malformed GITHUB_REPOSITORY (issue)",
      () => ["issue", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_REPOSITORY: "a/b/c" }),
      'GITHUB_REPOSITORY must be owner/name, got "a/b/c"',
    ],
    [
      "no GITHUB_REPOSITORY",
      () => ["issue", "github", "--report", report],
      () => without(githubEnv(api, dir), "GITHUB_REPOSITORY"),
      "GITHUB_REPOSITORY is not set: set it to the repository as owner/name",
    ],
    [
      "a GITHUB_API_URL that is no URL",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_API_URL: "api.github" }),
      'GITHUB_API_URL is not a URL ("api.github")',
    ],
    [
      "a GITHUB_API_URL of another scheme, with credentials in it: shown without them",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_API_URL: "ftp://bot:s3cr3t-in-url@api.example.com/" }),
      'GITHUB_API_URL must be an http(s) URL, got "ftp://api.example.com/".',
    ],
    [
      "a GITHUB_API_URL that is no URL, with credentials in it: shown without them",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_API_URL: "https://bot:s3cr3t-in-url@[api" }),
      'GITHUB_API_URL is not a URL ("https://[api")',
    ],
    [
      "no GITHUB_EVENT_PATH",
      () => ["comment", "github", "--report", report],
      () => without(githubEnv(api, dir), "GITHUB_EVENT_PATH"),
      "GITHUB_EVENT_PATH is not set: run `comment github` in a workflow triggered by pull_request",
    ],
    [
      "a GITHUB_EVENT_PATH that does not exist",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_EVENT_PATH: join(dir, "none.json") }),
      "cannot read it as JSON (ENOENT)",
    ],
    [
      "an event with no pull request",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_EVENT_PATH: writeEvent(dir, { schedule: "0 3 * * *" }) }),
      "the event names no pull request",
    ],
    [
      "an issue event that is not a pull request's",
      () => ["comment", "github", "--report", report],
      () => ({ ...githubEnv(api, dir), GITHUB_EVENT_PATH: writeEvent(dir, { issue: { number: 3 } }) }),
      "the event names no pull request",
    ],
    ["no --report", () => ["comment", "github"], () => githubEnv(api, dir), "--report is required"],
    [
      "a report that does not exist",
      () => ["comment", "github", "--report", join(dir, "nope.json")],
      () => githubEnv(api, dir),
      "nope.json: cannot read it (ENOENT)",
    ],
    [
      "a report that is not JSON",
      () => ["issue", "github", "--report", writeText("bad.json", "## Drift review")],
      () => githubEnv(api, dir),
      "bad.json: not JSON",
    ],
    [
      "a version 2 review",
      () => ["comment", "github", "--report", writeReview(dir, "v2.json", { ...drift, version: 2 } as never)],
      () => githubEnv(api, dir),
      "not a review report of version 3 (it has version 2)",
    ],
    [
      "a version 3 file with no findings",
      () => ["comment", "gitlab", "--report", writeText("odd.json", '{"version":3}')],
      () => gitlabEnv(api),
      "not a review report (it has no sources, findings or status)",
    ],
    [
      "an unknown platform word",
      () => ["comment", "bitbucket", "--report", report],
      () => githubEnv(api, dir),
      'unknown platform "bitbucket": use `comment github` or `comment gitlab`',
    ],
    [
      "issue on gitlab",
      () => ["issue", "gitlab", "--report", report],
      () => gitlabEnv(api),
      'unknown platform "gitlab": use `issue github`',
    ],
    ["no platform word", () => ["comment", "--report", report], () => githubEnv(api, dir), "name the platform first"],
    [
      "an unknown --behavior",
      () => ["comment", "github", "--report", report, "--behavior", "delete"],
      () => githubEnv(api, dir),
      '--behavior must be one of update, new, got "delete"',
    ],
    [
      "an unknown flag",
      () => ["issue", "github", "--report", report, "--labels", "x"],
      () => githubEnv(api, dir),
      "Unknown option '--labels'",
    ],
    [
      "no GITLAB_TOKEN",
      () => ["comment", "gitlab", "--report", report],
      () => without(gitlabEnv(api), "GITLAB_TOKEN"),
      "GITLAB_TOKEN is not set",
    ],
    [
      "no CI_API_V4_URL",
      () => ["comment", "gitlab", "--report", report],
      () => without(gitlabEnv(api), "CI_API_V4_URL"),
      "CI_API_V4_URL is not set",
    ],
    [
      "no CI_PROJECT_ID",
      () => ["comment", "gitlab", "--report", report],
      () => without(gitlabEnv(api), "CI_PROJECT_ID"),
      "CI_PROJECT_ID is not set",
    ],
    [
      "no CI_MERGE_REQUEST_IID",
      () => ["comment", "gitlab", "--report", report],
      () => without(gitlabEnv(api), "CI_MERGE_REQUEST_IID"),
      "CI_MERGE_REQUEST_IID is not set: run `comment gitlab` in a merge request pipeline",
    ],
  ];
  const writeText = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it.each(cases)("%s", async (_what, argv, env, message) => {
    api.calls.length = 0;
    const run = await runCli(argv(), env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
    expect(api.calls).toEqual([]);
    expect(run.stderr).not.toContain(TOKEN);
  });
});

describe("a token never appears in any output, error or log", () => {
  it("is redacted even from an API message that echoes it, and never leaves for another origin", async () => {
    const api = await startStandIn();
    const dir = scratch();
    try {
      const report = writeReview(dir, "review.json", drift);
      api.fail = { status: 500, message: `internal error for Bearer ${TOKEN}` };
      const echoed = await runCli(["comment", "github", "--report", report], githubEnv(api, dir));
      expect(echoed.code).toBe(1);
      expect(echoed.stderr).toContain("the API answered 500: internal error for Bearer ***");
      api.fail = undefined;
      const unreachable = await runCli(["issue", "github", "--report", report], {
        ...githubEnv(api, dir),
        GITHUB_API_URL: "http://127.0.0.1:1",
      });
      expect(unreachable.stderr).toContain("cannot reach http://127.0.0.1:1");
      expect(unreachable.stderr).toContain("check GITHUB_API_URL");
      const runs = [echoed, unreachable];
      for (const run of runs) expect(run.stdout + run.stderr).not.toContain(TOKEN);
    } finally {
      await api.close();
    }
  });
});

describe("the body", () => {
  const marker = markerOf(drift);

  it("is cut under the platform's limit at a line, pointing at the run", () => {
    const markdown = Array.from({ length: 500 }, (_, i) => `| row ${i} |`).join("\n");
    const body = bodyOf(marker, markdown, 2_000, "http://github.test/octo/infra/actions/runs/42");
    expect(body.length).toBeLessThanOrEqual(2_000);
    expect(body.startsWith(`${marker}\n| row 0 |`)).toBe(true);
    expect(body).toMatch(
      /\| row \d+ \|\n\n\*… cut to fit the platform's limit of 2,000 characters; the full report is with the run: http:\/\/github\.test\/octo\/infra\/actions\/runs\/42\*\n$/,
    );
    expect(bodyOf(marker, "short", 2_000)).toBe(`${marker}\nshort\n`);
    expect(bodyOf(marker, markdown, 2_000)).toContain("the full report is the run's `--report` files");
  });

  it("is the same whatever the review's duration", () => {
    expect(sameContent("a\n<sub>reviewed in 4.3s · `x`</sub>\n", "a\n<sub>reviewed in 10.0s · `x`</sub>")).toBe(true);
    expect(sameContent("a\n", "b\n")).toBe(false);
  });

  it("has a marker that depends on the sources, not their order", () => {
    expect(markerOf({ sources: [...SOURCES].reverse() })).toBe(marker);
    expect(markerOf({ sources: SOURCES.slice(1) })).not.toBe(marker);
    expect(marker).toMatch(/^<!-- webhook-subscriptions drift: [0-9a-f]{12} -->$/);
  });
});

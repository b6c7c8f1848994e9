/**
 * GitHub's REST API, as the pipeline commands use it: a pull request's comments (every page,
 * following `Link: rel="next"`), and the repository's issues (list by label, open, edit, close,
 * comment). `GITHUB_API_URL` points it at GitHub Enterprise Server or a test's stand-in.
 */
import { callApi, headerOf, type ApiAnswer, type ApiCall, type ApiTarget } from "./http";
import type { CommentThread, ThreadComment } from "./thread";

/** GitHub refuses a comment or an issue body over 65,536 characters. */
export const GITHUB_BODY_LIMIT = 65_536;

/** The headers GitHub's REST API asks for. */
export const GITHUB_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };

/** An issue as the drift issue reads it. */
export interface GitHubIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly state: string;
  readonly html_url?: string;
  /** Present on a pull request: the issues list holds them too. */
  readonly pull_request?: unknown;
}

interface GitHubComment {
  readonly id: number;
  readonly body?: string | null;
  readonly html_url?: string;
}

/** The URL of the `rel="next"` page in a Link header, if any. */
export function nextLink(link: string | undefined): string | undefined {
  return link
    ?.split(",")
    .map((part) => /<([^>]+)>\s*;\s*rel="?next"?/.exec(part)?.[1])
    .find((url) => url !== undefined);
}

const asComment = (c: GitHubComment): ThreadComment => ({
  id: c.id,
  body: c.body ?? "",
  ...(c.html_url ? { url: c.html_url } : {}),
});

/** One repository (`owner/name`) on one GitHub API. */
export class GitHubClient {
  constructor(
    private readonly target: ApiTarget,
    /** `owner/name`, checked. */
    readonly repository: string,
  ) {}

  private call<T>(call: ApiCall): Promise<ApiAnswer<T>> {
    return callApi<T>(call, this.target);
  }

  /** Every item of a list, page after page. */
  private async pages<T>(path: string, operation: string, check: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    for (let page = 1; next !== undefined; page++) {
      const answer: ApiAnswer<T[]> = await this.call<T[]>({
        method: "GET",
        path: next,
        operation: page === 1 ? operation : `${operation} (page ${page})`,
        check,
      });
      items.push(...(Array.isArray(answer.json) ? answer.json : []));
      next = nextLink(headerOf(answer, "link"));
    }
    return items;
  }

  private get repo(): string {
    return `/repos/${this.repository}`;
  }

  private readCheck(what: string): string {
    return `that GITHUB_REPOSITORY (${this.repository}) and ${what} exist and that the token can read them`;
  }

  private writeCheck(permission: string): string {
    return `that the token may write ${permission} (in a workflow: \`permissions: ${permission}: write\`)`;
  }

  /** The comments of pull request `number`. */
  pullRequest(number: number): CommentThread {
    const title = `pull request #${number}`;
    return {
      title,
      limit: GITHUB_BODY_LIMIT,
      list: async () =>
        (
          await this.pages<GitHubComment>(
            `${this.repo}/issues/${number}/comments?per_page=100`,
            `list the comments of ${title}`,
            this.readCheck(title),
          )
        ).map(asComment),
      create: async (body) =>
        asComment(
          (
            await this.call<GitHubComment>({
              method: "POST",
              path: `${this.repo}/issues/${number}/comments`,
              body: { body },
              operation: `comment on ${title}`,
              check: this.writeCheck("pull-requests"),
            })
          ).json,
        ),
      update: async (id, body) =>
        asComment(
          (
            await this.call<GitHubComment>({
              method: "PATCH",
              path: `${this.repo}/issues/comments/${id}`,
              body: { body },
              operation: `edit comment ${id} on ${title}`,
              check: this.writeCheck("pull-requests"),
            })
          ).json,
        ),
    };
  }

  /** The open issues labelled `label` (pull requests left out). */
  async openIssues(label: string): Promise<GitHubIssue[]> {
    const issues = await this.pages<GitHubIssue>(
      `${this.repo}/issues?state=open&per_page=100&labels=${encodeURIComponent(label)}`,
      `list the open issues labelled ${label}`,
      this.readCheck("its issues"),
    );
    return issues.filter((issue) => issue.pull_request === undefined);
  }

  async createIssue(title: string, body: string, label: string): Promise<GitHubIssue> {
    return (
      await this.call<GitHubIssue>({
        method: "POST",
        path: `${this.repo}/issues`,
        body: { title, body, labels: [label] },
        operation: "open the drift issue",
        check: this.writeCheck("issues"),
      })
    ).json;
  }

  async updateIssue(
    number: number,
    patch: { body?: string; state?: "closed"; state_reason?: "completed" },
  ): Promise<GitHubIssue> {
    return (
      await this.call<GitHubIssue>({
        method: "PATCH",
        path: `${this.repo}/issues/${number}`,
        body: patch,
        operation: patch.state === "closed" ? `close issue #${number}` : `update issue #${number}`,
        check: this.writeCheck("issues"),
      })
    ).json;
  }

  async commentOnIssue(number: number, body: string): Promise<void> {
    await this.call<GitHubComment>({
      method: "POST",
      path: `${this.repo}/issues/${number}/comments`,
      body: { body },
      operation: `comment on issue #${number}`,
      check: this.writeCheck("issues"),
    });
  }
}

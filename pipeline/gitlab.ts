/**
 * GitLab's v4 API, as `comment gitlab` uses it: a merge request's notes, every page (following
 * `x-next-page`), created and edited. `CI_API_V4_URL` points it at a self-managed instance or a
 * test's stand-in; the project is `CI_PROJECT_ID` (a number or a `group/project` path).
 */
import { callApi, headerOf, type ApiAnswer, type ApiTarget } from "./http";
import type { CommentThread, ThreadComment } from "./thread";

/** GitLab refuses a note over 1,000,000 characters. */
export const GITLAB_BODY_LIMIT = 1_000_000;

interface GitLabNote {
  readonly id: number;
  readonly body?: string | null;
  /** A note GitLab wrote itself (a push, a label): never ours. */
  readonly system?: boolean;
}

const asComment = (note: GitLabNote): ThreadComment => ({ id: note.id, body: note.body ?? "" });

/** The notes of merge request `iid` of `project`. */
export function mergeRequestThread(target: ApiTarget, project: string, iid: number): CommentThread {
  const title = `merge request !${iid}`;
  const base = `/projects/${encodeURIComponent(project)}/merge_requests/${iid}/notes`;
  const readCheck = `that CI_PROJECT_ID (${project}) and CI_MERGE_REQUEST_IID (${iid}) name a merge request the token can read`;
  const writeCheck = "that the token may write notes (a project or personal access token with the `api` scope)";
  return {
    title,
    limit: GITLAB_BODY_LIMIT,
    async list() {
      const notes: GitLabNote[] = [];
      let page: string | undefined = "1";
      while (page) {
        const answer: ApiAnswer<GitLabNote[]> = await callApi<GitLabNote[]>(
          {
            method: "GET",
            path: `${base}?per_page=100&sort=asc&order_by=created_at&page=${encodeURIComponent(page)}`,
            operation: page === "1" ? `list the notes of ${title}` : `list the notes of ${title} (page ${page})`,
            check: readCheck,
          },
          target,
        );
        notes.push(...(Array.isArray(answer.json) ? answer.json : []));
        page = headerOf(answer, "x-next-page")?.trim() || undefined;
      }
      return notes.filter((note) => note.system !== true).map(asComment);
    },
    create: async (body) =>
      asComment(
        (
          await callApi<GitLabNote>(
            { method: "POST", path: base, body: { body }, operation: `comment on ${title}`, check: writeCheck },
            target,
          )
        ).json,
      ),
    update: async (id, body) =>
      asComment(
        (
          await callApi<GitLabNote>(
            {
              method: "PUT",
              path: `${base}/${id}`,
              body: { body },
              operation: `edit note ${id} on ${title}`,
              check: writeCheck,
            },
            target,
          )
        ).json,
      ),
  };
}

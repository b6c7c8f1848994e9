/**
 * One open drift issue per review marker (label `webhook-drift` by default): opened when a review
 * finds drift, its body updated while the drift lasts (left alone when unchanged), closed with a
 * comment once a review is clean. A review that failed leaves the issue as it is.
 */
import type { Review } from "../drift";
import { reviewBody, sameContent } from "./body";
import { GITHUB_BODY_LIMIT, type GitHubClient, type GitHubIssue } from "./github";
import { markerOf } from "./marker";

export const DEFAULT_LABEL = "webhook-drift";

/** What became of the issue. */
export interface IssueOutcome {
  readonly action: "opened" | "updated" | "unchanged" | "closed" | "none" | "left";
  readonly issue?: GitHubIssue;
}

export interface DriftIssueOptions {
  readonly label: string;
  /** The run's URL: where the full report is, and what the closing comment points at. */
  readonly runUrl?: string;
}

/** `Webhook subscription drift: dev, infra/team`, at most 200 characters. */
export function issueTitle(review: Review): string {
  const title = `Webhook subscription drift: ${review.sources.map((s) => s.source.name).join(", ")}`;
  return title.length <= 200 ? title : `${title.slice(0, 199)}…`;
}

/** Opens, updates or closes the drift issue of `review`'s sources. */
export async function keepDriftIssue(
  client: GitHubClient,
  review: Review,
  options: DriftIssueOptions,
): Promise<IssueOutcome> {
  const marker = markerOf(review);
  const issue = (await client.openIssues(options.label)).find((i) => (i.body ?? "").includes(marker));
  if (review.status === "error") return issue ? { action: "left", issue } : { action: "left" };
  if (review.status === "in-sync" || review.findings.length === 0) {
    if (!issue) return { action: "none" };
    const run = options.runUrl ? ` ([run](${options.runUrl}))` : "";
    await client.commentOnIssue(
      issue.number,
      `${marker}\nThe drift review of ${review.generatedAt} is clean${run}: closing this issue.`,
    );
    return {
      action: "closed",
      issue: await client.updateIssue(issue.number, { state: "closed", state_reason: "completed" }),
    };
  }
  const body = reviewBody(marker, review, GITHUB_BODY_LIMIT, options.runUrl);
  if (!issue) return { action: "opened", issue: await client.createIssue(issueTitle(review), body, options.label) };
  if (sameContent(issue.body ?? "", body)) return { action: "unchanged", issue };
  return { action: "updated", issue: await client.updateIssue(issue.number, { body }) };
}

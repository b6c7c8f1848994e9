/**
 * The review as GitLab Code Quality (`--format codequality`, `--report *.codequality.json`), the
 * report `artifacts:reports:codequality` publishes to the merge request widget. GitLab reads a JSON
 * array of objects with `description`, `check_name`, `fingerprint`, `severity`, `location.path` and
 * `location.lines.begin` (docs.gitlab.com/ci/testing/code_quality/, "Implement a custom tool"), and
 * ignores every other Code Climate property: so each issue holds those and nothing else. The rule
 * and the fingerprint are SARIF's (sarif.ts), so that a finding is the same finding in code
 * scanning, in GitLab, and under `--baseline`.
 */
import type { Finding, Review } from "../review/model";
import { findingLevel } from "./sarif";

/** The severities GitLab documents, least to most severe. */
export const CODE_QUALITY_SEVERITIES = ["info", "minor", "major", "critical", "blocker"] as const;
export type CodeQualitySeverity = (typeof CODE_QUALITY_SEVERITIES)[number];

/**
 * SARIF's two levels on GitLab's five-step scale. `warning` → `minor`. `error` → `major`, not
 * `critical`: `major` is the step above `minor` as `error` is the step above `warning`, so the
 * order is kept without claiming more than the review's two levels say. GitLab combines every
 * job's Code Quality report into one: `critical` would put every deleted, co-owned or policy
 * finding above what a team's own tools keep the top steps for. Failing the job is the exit
 * code's work (2 on drift), not the severity's.
 */
export const CODE_QUALITY_SEVERITY: Readonly<Record<"error" | "warning", CodeQualitySeverity>> = {
  error: "major",
  warning: "minor",
};

/** One Code Quality issue: exactly the fields GitLab reads. */
export interface CodeQualityIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: CodeQualitySeverity;
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

function issue(finding: Finding): CodeQualityIssue {
  return {
    description: finding.advice ? `${finding.message} ${finding.advice}` : finding.message,
    check_name: finding.class,
    fingerprint: finding.fingerprint,
    severity: CODE_QUALITY_SEVERITY[findingLevel(finding)],
    // A repository-relative path as it is, with `/` (not SARIF's URI); GitLab requires a line: the
    // file's first when the declaring line is unknown.
    location: { path: finding.location.file, lines: { begin: finding.location.line ?? 1 } },
  };
}

/** The review as a GitLab Code Quality report: one issue per finding, `[]` when there is none. */
export function renderCodeQuality(review: Review): string {
  return `${JSON.stringify(review.findings.map(issue), null, 2)}\n`;
}

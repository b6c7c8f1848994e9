/**
 * The GitLab Code Quality renderer against the report format GitLab documents for a custom tool
 * (docs.gitlab.com/ci/testing/code_quality/, "Implement a custom tool"): a JSON array of objects,
 * each with `description`, `check_name`, `fingerprint`, `severity` (info, minor, major, critical or
 * blocker), `location.path` and `location.lines.begin`, and nothing GitLab would ignore; and the
 * same fingerprints as the SARIF, so a finding is one finding in every pipeline.
 */
import { describe, expect, it } from "vitest";
import {
  CODE_QUALITY_SEVERITIES,
  CODE_QUALITY_SEVERITY,
  renderCodeQuality,
  type CodeQualityIssue,
} from "../../drift/render/codequality";
import { render } from "../../drift/render";
import { FINGERPRINT_KEY, renderSarif, SARIF_LEVEL } from "../../drift/render/sarif";
import { FINDING_CLASSES, type Review } from "../../drift/review/model";
import { buildReview, everyClassReview, FINDINGS, SOURCES, withFailedSources } from "./fixtures/review";

const issues = (review: Review) => JSON.parse(renderCodeQuality(review)) as CodeQualityIssue[];

describe("renderCodeQuality", () => {
  it("is an array of one issue per finding, each with exactly the fields GitLab documents and their types", () => {
    const list: unknown = JSON.parse(renderCodeQuality(everyClassReview()));
    expect(Array.isArray(list)).toBe(true);
    expect(list).toHaveLength(FINDINGS.length);
    for (const issue of list as Record<string, unknown>[]) {
      expect(Object.keys(issue).sort()).toEqual(["check_name", "description", "fingerprint", "location", "severity"]);
      expect(typeof issue.description).toBe("string");
      expect(typeof issue.check_name).toBe("string");
      expect(issue.fingerprint).toMatch(/^[0-9a-f]{32}$/);
      expect(CODE_QUALITY_SEVERITIES).toContain(issue.severity);
      const location = issue.location as { path: unknown; lines: { begin: unknown } };
      expect(Object.keys(location).sort()).toEqual(["lines", "path"]);
      expect(Object.keys(location.lines)).toEqual(["begin"]);
      expect(typeof location.path).toBe("string");
      expect(Number.isInteger(location.lines.begin)).toBe(true);
      expect(location.lines.begin).toBeGreaterThanOrEqual(1);
    }
  });

  it("takes each field from its finding: message and advice, class, fingerprint, file and line (1 when unknown)", () => {
    issues(everyClassReview()).forEach((issue, i) => {
      const finding = FINDINGS[i]!;
      expect(issue.description).toBe(finding.advice ? `${finding.message} ${finding.advice}` : finding.message);
      expect(issue.check_name).toBe(finding.class);
      expect(issue.fingerprint).toBe(finding.fingerprint);
      expect(issue.location).toEqual({ path: finding.location.file, lines: { begin: finding.location.line ?? 1 } });
    });
    const [unmanaged] = issues(buildReview(SOURCES, [FINDINGS.find((f) => f.class === "unmanaged")!]));
    expect(unmanaged!.location).toEqual({ path: "app/Pulumi.yaml", lines: { begin: 1 } });
    // A path GitLab reads as it is: not SARIF's percent-encoded URI.
    const [spaced] = issues(buildReview(SOURCES, [{ ...FINDINGS[0]!, location: { file: "my app/index#1.ts" } }]));
    expect(spaced!.location.path).toBe("my app/index#1.ts");
  });

  it("maps SARIF's level: error to major, warning to minor", () => {
    expect(CODE_QUALITY_SEVERITY).toEqual({ error: "major", warning: "minor" });
    const bySeverity = Object.fromEntries(issues(everyClassReview()).map((i) => [i.check_name, i.severity]));
    expect(bySeverity).toEqual(
      Object.fromEntries(FINDING_CLASSES.map((c) => [c, CODE_QUALITY_SEVERITY[SARIF_LEVEL[c]]])),
    );
    expect(
      Object.entries(bySeverity)
        .filter(([, s]) => s === "major")
        .map(([c]) => c),
    ).toEqual(["deleted", "co-owned", "policy"]);
  });

  it("has the SARIF renderer's fingerprints and rule ids, finding for finding", () => {
    const review = withFailedSources(everyClassReview());
    const sarif = JSON.parse(renderSarif(review)) as {
      runs: { results: { ruleId: string; partialFingerprints: Record<string, string> }[] }[];
    };
    const fromSarif = sarif.runs[0]!.results.map((r) => [r.ruleId, r.partialFingerprints[FINGERPRINT_KEY]]);
    expect(issues(review).map((i) => [i.check_name, i.fingerprint])).toEqual(fromSarif);
  });

  it("is [] for a review without findings, and render ends it in one newline", () => {
    expect(renderCodeQuality(buildReview(SOURCES, []))).toBe("[]\n");
    expect(JSON.parse(render(buildReview([], []), "codequality"))).toEqual([]);
    expect(render(everyClassReview(), "codequality")).toBe(renderCodeQuality(everyClassReview()));
  });

  it("names no secret value, even one the model were to hold", () => {
    const review = everyClassReview();
    const leaky: Review = {
      ...review,
      findings: review.findings.map((f) => ({
        ...f,
        fields: [...f.fields, { field: "signature", secret: true, recorded: "sig-secret", live: "sig-other" }],
      })),
    };
    const text = renderCodeQuality(leaky);
    expect(text).not.toMatch(/sig-secret|sig-other/);
    // Nor any field value: a finding's values stay in the other formats.
    expect(text).not.toContain("https://evil.example/");
  });
});

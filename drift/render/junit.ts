/**
 * The review as JUnit XML (`--format junit`, `--report *.xml`), the test report GitLab, Jenkins
 * and most CI systems show without a plugin. It reads as a test run so that a pipeline's own
 * test view lists the drift: one `<testsuite>` per source (and one for findings no source claims),
 * a `<testcase>` per reviewed subscription (failed when it has a finding) and per finding (always
 * failed, its detail in the body), and an `<error>` for a source that could not be reviewed. The
 * subscriptions of a source whose drift could not be determined are skipped, never passed.
 */
import {
  CLASS_TITLES,
  isAdvisory,
  type Finding,
  type Review,
  type SourceRef,
  type SourceReport,
} from "../review/model";
import { sameSource, sourceName } from "./names";
import { escapeMarkup } from "./escape";
import { fieldLine } from "./fieldText";

/** The suite of findings no source claims: unmanaged subscriptions (a policy finding is a reaching source's). */
export const UNCLAIMED_SUITE = "claimed by no source";

/** A case's outcome: nothing when it passed. */
type Outcome =
  | { kind: "failure" | "error"; message: string; type: string; detail: string }
  | { kind: "skipped"; message: string }
  | undefined;

interface Case {
  readonly name: string;
  readonly file?: string;
  readonly outcome: Outcome;
}

function attributes(attrs: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeMarkup(String(value))}"`)
    .join("");
}

function testcase(classname: string, c: Case): string {
  const open = `    <testcase${attributes({ name: c.name, classname, file: c.file })}`;
  if (!c.outcome) return `${open}/>`;
  if (c.outcome.kind === "skipped")
    return `${open}>\n      <skipped${attributes({ message: c.outcome.message })}/>\n    </testcase>`;
  const { kind, message, type, detail } = c.outcome;
  return `${open}>\n      <${kind}${attributes({ message, type })}>${escapeMarkup(detail)}</${kind}>\n    </testcase>`;
}

/** The counts a suite, or the whole report, states. */
function tally(cases: readonly Case[]) {
  const count = (kind: "failure" | "error" | "skipped") => cases.filter((c) => c.outcome?.kind === kind).length;
  return { tests: cases.length, failures: count("failure"), errors: count("error"), skipped: count("skipped") };
}

function testsuite(name: string, cases: readonly Case[], timestamp: string): string {
  const attrs = attributes({ name, ...tally(cases), timestamp });
  return [`  <testsuite${attrs}>`, ...cases.map((c) => testcase(name, c)), "  </testsuite>"].join("\n");
}

/** A finding's detail: where it is, what each side holds (a secret as "secret differs"), what to do. */
function detail(finding: Finding): string {
  const owners = finding.owners ?? (finding.owner ? [finding.owner] : []);
  const { file, line } = finding.location;
  return [
    ...owners.map((o) => `${sourceName(o.source)}: ${o.address}`),
    finding.guid && `GUID: ${finding.guid}`,
    finding.baseUrl && `instance: ${finding.baseUrl}`,
    `location: ${file}${line ? `:${line}` : ""}`,
    ...finding.fields.map(fieldLine),
    finding.message,
    finding.advice,
    finding.baseline && `baseline: ${finding.baseline}`,
  ]
    .filter(Boolean)
    .join("\n");
}

function findingCase(finding: Finding): Case {
  const subject = finding.owner?.address ?? finding.guid ?? "(no GUID)";
  return {
    name: `${CLASS_TITLES[finding.class]}: ${subject}`,
    file: finding.location.file,
    // JUnit has no warning: a broken advisory rule, no drift, is shown skipped rather than failed.
    outcome: isAdvisory(finding)
      ? { kind: "skipped", message: `advisory: ${finding.message}` }
      : { kind: "failure", message: finding.message, type: finding.class, detail: detail(finding) },
  };
}

/** The cases of one source: why it was not reviewed, its subscriptions, its findings. */
function sourceCases(review: Review, summary: SourceReport, byFingerprint: ReadonlyMap<string, Finding>): Case[] {
  const mine = (source: SourceRef) => sameSource(source, summary.source);
  const notReviewed: Case[] =
    summary.status === "reviewed"
      ? []
      : [
          {
            name: `review of ${sourceName(summary.source)}`,
            file: summary.source.file,
            outcome: {
              kind: "error",
              message: summary.error?.message ?? summary.reason ?? summary.status,
              type: summary.error?.code ?? summary.status,
              detail: [summary.error?.message, summary.reason].filter(Boolean).join("\n"),
            },
          },
        ];
  const subscriptions = summary.subscriptions.map((r): Case => {
    const all = r.findings.flatMap((fp) => byFingerprint.get(fp) ?? []);
    const findings = all.filter((f) => !isAdvisory(f));
    const titles = [...new Set(findings.map((f) => CLASS_TITLES[f.class]))];
    return {
      name: r.address,
      outcome:
        summary.status === "undetermined"
          ? { kind: "skipped", message: "drift cannot be determined" }
          : summary.status === "reviewed" && summary.compared.length === 0 && r.findings.length === 0
            ? { kind: "skipped", message: "claimed: a state file's claims are compared with nothing" }
            : r.findings.length > 0 && all.length === 0
              ? { kind: "skipped", message: "its findings are ignored (--ignore, --ignore-file)" }
              : all.length > 0 && findings.length === 0
                ? { kind: "skipped", message: "advisory only: it breaks no mandatory rule" }
                : findings.length
                  ? {
                      kind: "failure",
                      message: titles.join(", "),
                      type: "drift",
                      detail: findings.map((f) => `${CLASS_TITLES[f.class]}: ${f.message}`).join("\n"),
                    }
                  : undefined,
    };
  });
  const findings = review.findings.filter((f) => f.owner && mine(f.owner.source)).map(findingCase);
  return [...notReviewed, ...subscriptions, ...findings];
}

/** The review as a JUnit XML report: a suite per source, a case per reviewed subscription and per finding. */
export function renderJunit(review: Review): string {
  const byFingerprint = new Map(review.findings.map((f) => [f.fingerprint, f]));
  const suites = review.sources.map((s) => ({
    name: sourceName(s.source),
    cases: sourceCases(review, s, byFingerprint),
  }));
  const unclaimed = review.findings.filter((f) => !f.owner).map(findingCase);
  if (unclaimed.length > 0) suites.push({ name: UNCLAIMED_SUITE, cases: unclaimed });

  const root = attributes({
    name: "webhook-subscriptions drift",
    ...tally(suites.flatMap((s) => s.cases)),
    time: (review.durationMs / 1000).toFixed(3),
    timestamp: review.generatedAt,
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${root}>`,
    ...suites.map((s) => testsuite(s.name, s.cases, review.generatedAt)),
    "</testsuites>",
    "",
  ].join("\n");
}

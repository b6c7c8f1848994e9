/**
 * The review as markdown, for a pull-request comment, a job summary or a terminal: one layout for
 * every mix of sources (Pulumi stacks, Terraform directories, state files), read from the review
 * alone. In order: the verdict with the counts (a failed review names the failed source and its
 * error first); the sources, each with what it was really compared with; the findings table; what
 * to do, each distinct advice once; a killed run's recovery commands; the policy; the adoption
 * snippets, folded; the ignore entries to fix; the notes; how long it took and the command that
 * runs it again. It says only what happened: a source that was not reviewed reads "not reviewed".
 * A report too long for one GitHub comment folds the in-sync rows, then drops the snippets, then
 * cuts rows, and says so.
 */
import { plural } from "../review/plural";
import {
  CLASS_TITLES,
  FINDING_CLASSES,
  type Finding,
  type FindingClass,
  type Review,
  type SourceReport,
} from "../review/model";
import { adoptionSection } from "./markdownAdoption";
import { FINDINGS_HEAD, findingTableRows, Subjects } from "./markdownFindings";
import { cell, clause, code, inline, prose } from "./markdownText";
import { claimsOnly, comparedText, KIND_TITLES, ownerName, sameSource, sourceTitle } from "./names";
import { policySection } from "./policyMarkdown";

/** GitHub refuses comments over 65,536 characters; by default, stay clear of it. */
export const MAX_COMMENT_CHARS = 60_000;

/** The footer's line (`<sub>reviewed in 4.3s · …</sub>`): it changes on every run, whatever else does. */
export const FOOTER_LINE = /^<sub>reviewed in [\d.]+s.*<\/sub>$/gm;

/** More subscriptions in sync than this read as one row. */
export const IN_SYNC_ROWS = 25;

/** What the markdown prints beyond the review: commands the command line computes. */
export interface MarkdownOptions {
  /** The command that runs this review again, printed last. */
  readonly rerun?: string;
  /** The command that prints the whole review as JSON, named when the report is cut to fit one comment. */
  readonly fullReport?: string;
  /** At most this many characters: a platform's limit for a comment. @default MAX_COMMENT_CHARS */
  readonly maxChars?: number;
}

/** `2 differ from the state`, `1 policy violation`. */
function countOf(cls: FindingClass, n: number): string {
  if (cls === "policy") return plural(n, "policy violation");
  return `${n} ${n > 1 ? CLASS_TITLES[cls].replace(/^differs/, "differ") : CLASS_TITLES[cls]}`;
}

/** What could not be reviewed, each source with its error or reason: the verdict's first words. */
function failedVerdict(review: Review): string {
  const said = (s: SourceReport) =>
    `${sourceTitle(s.source)}: ${clause(prose(s.error?.message ?? s.reason ?? s.status))}`;
  const failed = review.sources.filter((s) => s.status === "error").map(said);
  const undetermined = review.sources.filter((s) => s.status === "undetermined").map(said);
  const parts = [
    failed.length > 0 ? `**The review failed** for ${failed.join("; ")}` : "",
    undetermined.length > 0
      ? `${failed.length > 0 ? "drift cannot be determined" : "**Drift cannot be determined**"} for ${undetermined.join("; ")}`
      : "",
  ].filter(Boolean);
  return parts.length > 0
    ? `${parts.join("; ")}.`
    : "**The review failed**: an instance could not be listed (see the notes).";
}

/** The first line: the verdict and the counts. */
function verdict(review: Review): string {
  const counts = FINDING_CLASSES.filter((c) => review.summary[c] > 0)
    .map((c) => countOf(c, review.summary[c]))
    .join(", ");
  const baseline = review.baseline ? ` (${review.baseline.new} new since ${inline(review.baseline.file)})` : "";
  if (review.status === "error")
    return `${failedVerdict(review)}${counts ? ` Found all the same: ${counts}${baseline}.` : ""}`;
  const where = review.instances.length > 0 ? ` on ${review.instances.map((i) => i.baseUrl).join(" and ")}` : "";
  // A state file's claims were compared with nothing: neither in sync nor drifted.
  const managed = review.sources.filter((s) => !claimsOnly(s)).flatMap((s) => s.subscriptions);
  const across = `across ${plural(review.sources.length, "source")}`;
  if (review.status === "drift") {
    const inSync = managed.filter((m) => m.findings.length === 0).length;
    const sync = managed.length > 0 ? `; ${inSync} of ${plural(managed.length, "managed subscription")} in sync` : "";
    return `**Drift** ${across}: ${counts}${baseline}${sync}${where}.`;
  }
  // A subscription whose findings were all ignored is not in sync: the count says so.
  const inSync = managed.filter((m) => m.findings.length === 0).length;
  const claimed =
    managed.length === 0
      ? review.sources.some((s) => claimsOnly(s) && s.subscriptions.length > 0)
        ? "The state files' subscriptions are claimed, and compared with nothing"
        : "No source claims a subscription"
      : inSync < managed.length
        ? `${inSync} of ${plural(managed.length, "managed subscription")} in sync, the rest ignored`
        : managed.length === 1
          ? "The managed subscription is in sync"
          : `All ${managed.length} managed subscriptions are in sync`;
  const ignored = review.ignored.suppressed.reduce((n, s) => n + s.fingerprints.length, 0);
  return `**No drift** ${across}. ${claimed}, and no unmanaged subscription was found${where}${ignored > 0 ? `; ${plural(ignored, "finding")} ignored` : ""}.`;
}

function sourceRow(s: SourceReport): string {
  const compared = comparedText(s);
  const on = s.instances.map((i) => `${code(i.baseUrl)} (api-version ${i.apiVersion})`).join(", ");
  const status =
    s.status === "reviewed"
      ? [
          `reviewed: ${plural(s.subscriptions.length, "subscription")}${on ? ` on ${on}` : ""}`,
          s.backend ? `state in ${cell(s.backend)}` : "",
        ]
          .filter(Boolean)
          .join("; ")
      : // The verdict above gives its message: each error is shown once.
        `**${s.status === "error" ? "failed" : s.status}** (see above)`;
  return `| ${KIND_TITLES[s.source.kind]} | ${code(s.source.name)} | ${compared} | ${status} |`;
}

/** The sources, and what a state-only comparison cannot see. */
function sourcesSection(review: Review): string {
  const stateOnly = review.sources.filter(
    (s) => s.status === "reviewed" && s.source.kind !== "terraform-state" && s.compared.join() === "state",
  );
  return [
    ["| Source | Name | Compared with | Status |", "| --- | --- | --- | --- |", ...review.sources.map(sourceRow)].join(
      "\n",
    ),
    stateOnly.length > 0
      ? `Compared with the state only (${inline("--state-only")}): ${stateOnly.map((s) => sourceTitle(s.source)).join(", ")}. ` +
        "A refresh copies the live values into the state (`pulumi refresh`, `tofu apply -refresh-only`), so this " +
        "comparison does not see what it accepted; without `--state-only` the review compares with the program or configuration too."
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** Each distinct advice once, with the classes and the subscriptions it is for. */
function adviceSection(review: Review): string {
  const byAdvice = new Map<string, Finding[]>();
  for (const f of review.findings) if (f.advice) byAdvice.set(f.advice, [...(byAdvice.get(f.advice) ?? []), f]);
  if (byAdvice.size === 0) return "";
  const subject = (f: Finding) => (f.owner ? inline(ownerName(review, f.owner)) : f.guid ? inline(f.guid) : "");
  const items = [...byAdvice].map(([advice, findings]) => {
    const classes = [...new Set(findings.map((f) => CLASS_TITLES[f.class]))].join(", ");
    const names = [...new Set(findings.map(subject).filter(Boolean))];
    const shown = names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ");
    return `- **${classes}**${shown ? ` (${shown})` : ""}: ${prose(advice)}`;
  });
  return ["### What to do", "", ...items].join("\n");
}

/** How to finish a killed `pulumi up`, per stack: the commands, in order. */
function recoverySection(review: Review): string {
  return review.sources
    .flatMap((s) => {
      if (!s.recovery?.length) return [];
      const orphans = review.findings.filter(
        (f) => f.class === "pending-create" && f.owner && sameSource(f.owner.source, s.source),
      ).length;
      return [
        [
          `**A killed \`pulumi up\` left pending creates in the state of ${sourceTitle(s.source)}**` +
            `${orphans > 0 ? `, and ${plural(orphans, "subscription")} it created but never recorded` : ""}. ` +
            "Finish it with these commands, in order, in the program's directory: clear the pending creates" +
            (orphans > 0 ? ", let each resource take over its own orphan, and only those" : "") +
            ", create the rest (docs/recovery.md):",
          "",
          "```sh",
          ...s.recovery,
          "```",
        ].join("\n"),
      ];
    })
    .join("\n\n");
}

/** The ignore rules' work, and the `--ignore-file` entries that need attention. */
function ignoredSection(review: Review): string {
  const { suppressed, expired, stale } = review.ignored;
  const count = suppressed.reduce((n, s) => n + s.fingerprints.length, 0);
  const entry = (e: (typeof expired)[number]) => `${inline(e.match)} (${prose(e.reason)}, owner ${prose(e.owner)})`;
  const lines = [
    ...(count > 0
      ? [
          `- ${plural(count, "finding")} ignored: ${suppressed.map((s) => `${s.fingerprints.length} by ${inline(s.match)}`).join(", ")}`,
        ]
      : []),
    ...expired.map((e) => `- expired on ${e.expires}: ${entry(e)} suppresses nothing now`),
    ...stale.map((e) => `- stale: ${entry(e)} matched nothing; remove it or fix its match`),
  ];
  return lines.length > 0 ? ["### Ignored", "", ...lines].join("\n") : "";
}

/** What the review could not see, one quote each (capitalised: a note starts a sentence). */
function notesSection(review: Review): string {
  return review.notes.map((n) => `> **Note:** ${prose(n.charAt(0).toUpperCase() + n.slice(1))}`).join("\n\n");
}

function footer(review: Review, options: MarkdownOptions): string {
  const again = options.rerun ? ` · ${inline(options.rerun)}` : "";
  return `<sub>reviewed in ${(review.durationMs / 1000).toFixed(1)}s${again}</sub>`;
}

/** The last resort, when even the cut rows leave it too long: the text cut at a line, saying so. */
function cutToFit(text: string, maxChars: number): string {
  const end = "\n\n*… cut to fit one comment.*\n";
  return `${text.slice(0, text.lastIndexOf("\n", maxChars - end.length))}${end}`;
}

/** The review as markdown; see the module comment. */
export function renderMarkdown(review: Review, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? MAX_COMMENT_CHARS;
  const subjects = new Subjects(review);
  const rows = findingTableRows(review);
  const head = ["## Drift review", verdict(review), sourcesSection(review)];
  const middle = [adviceSection(review), recoverySection(review), policySection(review, subjects)];
  const tail = [ignoredSection(review), notesSection(review), footer(review, options)];
  const adoption = adoptionSection(review.findings);
  const tooLong = options.fullReport
    ? `*The report is too long for one comment: run ${inline(options.fullReport)} for all of it.*`
    : "*The report is too long for one comment.*";
  const page = (tableRows: readonly string[], withSnippets: boolean, note = "") =>
    [
      ...head,
      tableRows.length > 0 ? ["### Subscriptions", "", ...FINDINGS_HEAD, ...tableRows].join("\n") : "",
      ...middle,
      note,
      withSnippets ? adoption : "",
      ...tail,
    ]
      .filter(Boolean)
      .join("\n\n")
      .concat("\n");

  const drift = [...rows.drift, ...rows.unknown];
  const attempts = [
    () => page([...drift, ...(rows.inSync.length > IN_SYNC_ROWS ? rows.folded : rows.inSync)], true),
    () => page([...drift, ...rows.folded], true),
    () => page([...drift, ...rows.folded], false, tooLong),
  ];
  for (const attempt of attempts) {
    const text = attempt();
    if (text.length <= maxChars) return text;
  }
  // Even the drift rows alone are too many: keep as many as fit.
  const budget = maxChars - page([], false, tooLong).length - 200;
  let used = 0;
  const kept = drift.filter((row) => (used += row.length + 1) <= budget);
  const cut = page([...kept, `| … | ${drift.length - kept.length} more rows |  |  |  |  |  |`], false, tooLong);
  return cut.length <= maxChars ? cut : cutToFit(cut, maxChars);
}

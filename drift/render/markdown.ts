/**
 * The review as markdown, for a pull-request comment or a pipeline's log. A review of Pulumi
 * stacks alone reads as each stack's own report did (drift/markdown.ts), one after the other;
 * with Terraform sources, a summary of every source and count comes first, then each stack's
 * report, then the findings no stack's report shows (a Terraform source's, and the unmanaged
 * ones of instances no stack reaches). Each finding is printed once.
 */
import { formatMarkdown, reviewCommandLine } from "../markdown";
import { cell, code } from "../markdownText";
import { plural } from "../plural";
import { CLASS_TITLES, FINDING_CLASSES, type Finding, type Review, type SourceSummary } from "../review/model";
import { fieldLine } from "./fieldText";
import type { RenderOptions } from "./index";

const KIND_TITLES = {
  "pulumi-stack": "Pulumi stack",
  "terraform-directory": "Terraform directory",
  "terraform-state": "Terraform state",
} as const;

/** Whether a stack's own report already shows `f`. */
function shownByStack(f: Finding, review: Review): boolean {
  if (f.owner?.source.kind === "pulumi-stack" || f.owners?.some((o) => o.source.kind === "pulumi-stack")) return true;
  const stackInstances = new Set(
    review.stacks.flatMap((r) => (r.instances ?? (r.instance ? [r.instance] : [])).map((i) => i.baseUrl)),
  );
  return f.class === "unmanaged" && f.baseUrl !== null && stackInstances.has(f.baseUrl);
}

/** Where the review found each stack's subscriptions declared (`file:line`), by URN: its findings' locations. */
function stackDeclarations(review: Review): Map<string, string> {
  return new Map(
    review.findings.flatMap((f): Array<[string, string]> =>
      f.owner?.source.kind === "pulumi-stack" && f.location.line
        ? [[f.owner.address, `${f.location.file}:${f.location.line}`]]
        : [],
    ),
  );
}

function sourceRow(s: SourceSummary): string {
  const status =
    s.status === "reviewed"
      ? `${plural(s.claimed, "subscription")} claimed`
      : `**${s.status}:** ${cell(s.error?.message ?? s.reason ?? "")}`;
  const compared =
    s.comparison === "state" ? "state" : `state and ${s.source.kind === "pulumi-stack" ? "program" : "configuration"}`;
  return `| ${KIND_TITLES[s.source.kind]} | ${code(s.source.name)} | ${compared} | ${status} |`;
}

function findingRow(f: Finding): string {
  const owner = f.owner ? `${code(f.owner.source.name)} ${code(f.owner.address)}` : f.baseUrl ? code(f.baseUrl) : "";
  // The line that declares it (a .tf file's, a program's), where the review knows one.
  const where = f.location.line ? `${owner}<br>${code(`${f.location.file}:${f.location.line}`)}` : owner;
  const fields = f.fields.map((x) => cell(fieldLine(x))).join("<br>");
  const isNew = f.baseline === "new" ? " **new**" : "";
  return `| ${CLASS_TITLES[f.class]}${isNew} | ${where} | ${f.guid ? code(f.guid) : ""} | ${fields} | ${cell(f.message)}${f.advice ? `<br>${cell(f.advice)}` : ""} |`;
}

function verdict(review: Review): string {
  const counts = FINDING_CLASSES.filter((c) => review.summary[c] > 0).map(
    (c) => `${review.summary[c]} ${CLASS_TITLES[c]}`,
  );
  const baseline = review.baseline ? ` (${review.baseline.new} new since ${code(review.baseline.file)})` : "";
  if (review.status === "error")
    return `**The review failed** for ${plural(review.sources.filter((s) => s.status !== "reviewed").length, "source")}; see below.`;
  return review.status === "in-sync"
    ? `**No drift** across ${plural(review.sources.length, "source")}.`
    : `**Drift** across ${plural(review.sources.length, "source")}: ${counts.join(", ")}${baseline}.`;
}

function ignoredSection(review: Review): string[] {
  const lines = [
    ...review.ignored.expired.map(
      (e) =>
        `- expired on ${e.expires}: ${code(e.match)} (${cell(e.reason)}, owner ${cell(e.owner)}) suppresses nothing now`,
    ),
    ...review.ignored.stale.map(
      (e) =>
        `- stale: ${code(e.match)} (${cell(e.reason)}, owner ${cell(e.owner)}) matched nothing; remove it or fix its match`,
    ),
  ];
  return lines.length > 0 ? ["", "### Ignore file", "", ...lines] : [];
}

/** Closes a review that no stack's report closes: how long it took, and the command that runs it again. */
function footer(review: Review, options: RenderOptions): string[] {
  if (!options.reviewFlags) return [];
  const command = options.rerun ?? reviewCommandLine(options.invocation, options.reviewFlags);
  return ["", `<sub>reviewed in ${(review.durationMs / 1000).toFixed(1)}s · ${code(command)}</sub>`];
}

/** The review as markdown; see the module comment. */
export function renderMarkdown(review: Review, options: RenderOptions = {}): string {
  const stacksOnly = review.sources.every((s) => s.source.kind === "pulumi-stack");
  const stackOptions = { ...options, declaredAt: stackDeclarations(review) };
  const stackParts = review.stacks.map((r) => formatMarkdown(r, stackOptions));
  const extra = ignoredSection(review);
  if (stacksOnly && stackParts.length > 0 && !review.baseline)
    return stackParts.join("\n---\n\n") + (extra.length > 0 ? `${extra.join("\n")}\n` : "");
  const rest = review.findings.filter((f) => !shownByStack(f, review));
  const lines = [
    `## Drift review`,
    "",
    verdict(review),
    "",
    "| source | name | compared with | status |",
    "| --- | --- | --- | --- |",
    ...review.sources.map(sourceRow),
    ...(rest.length > 0
      ? [
          "",
          "### Findings",
          "",
          "| class | where | GUID | fields | what and what to do |",
          "| --- | --- | --- | --- | --- |",
          ...rest.map(findingRow),
        ]
      : []),
    ...extra,
    ...(stackParts.length === 0 && review.notes.length > 0 ? ["", ...review.notes.map((n) => `- ${cell(n)}`)] : []),
    ...(stackParts.length === 0 ? footer(review, options) : []),
    "",
  ];
  return [lines.join("\n"), ...stackParts].join("\n---\n\n");
}

/**
 * The `--policy` section of the markdown report: the rules that were on, one line saying what
 * broke, then one row per violation.
 */
import { plural } from "../review/plural";
import { isAdvisory, type Finding, type Review } from "../review/model";
import { fieldLine } from "./fieldText";
import { cell, code, inline } from "./markdownText";
import type { Subjects } from "./markdownFindings";
import { isClaimed } from "./names";

const levelOf = (f: Finding) => (isAdvisory(f) ? "advisory" : "mandatory");

/** The section, or "" without `--policy`. */
export function policySection(review: Review, subjects: Subjects): string {
  const policy = review.policy;
  if (!policy) return "";
  const file = inline(policy.file);
  const rules = `The rules on: ${policy.rules.map((r) => `${inline(r.name)} (${r.enforcementLevel})`).join(", ")}.`;
  const violations = review.findings.filter((f) => f.class === "policy");
  if (violations.length === 0)
    return `**Policy ${file}:** every live subscription follows the ${plural(policy.rules.length, "rule")} that ${policy.rules.length === 1 ? "is" : "are"} on. ${rules}`;
  const mandatory = violations.filter((f) => levelOf(f) === "mandatory").length;
  const verdict =
    mandatory > 0
      ? `${plural(mandatory, "mandatory violation")}${review.exitCode === 2 ? " (the review exits 2)" : ""}`
      : "no mandatory violation";
  const rows = violations.map((f) => {
    const subscription = f.owner && isClaimed(review, f.owner) ? subjects.of(f) : "*claimed by no source*";
    const fields = f.fields.map((x) => cell(fieldLine(x))).join("<br>");
    return `| ${levelOf(f)} | ${code(f.rule?.name ?? "")} | ${f.guid ? code(f.guid) : ""} | ${subscription} | ${fields} | ${cell(f.message)} |`;
  });
  return [
    `**Policy ${file}:** ${verdict}, ${violations.length - mandatory} advisory. ${rules}`,
    "",
    "| Level | Rule | GUID | Subscription | Field | What to change |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The `--policy` section of the markdown report: one line saying what broke, then one row per violation. */
import { cell, code } from "./markdownText";
import type { DriftReport } from "./report";

export function policySection(report: DriftReport): string {
  const policy = report.policy;
  if (!policy) return "";
  const file = code(policy.file);
  if (policy.violations.length === 0)
    return `**Policy ${file}:** every live subscription follows the ${policy.rules.length} rules that are on.`;
  const verdict =
    policy.mandatory > 0
      ? `${policy.mandatory} mandatory violation${policy.mandatory === 1 ? "" : "s"} (the review exits 2)`
      : "no mandatory violation";
  const rows = policy.violations.map(
    (v) =>
      `| ${v.enforcementLevel} | ${code(v.rule)} | ${code(v.guid)} | ${v.resource === null ? "*unmanaged*" : code(v.resource)} | ${code(v.subscriberUrl)} | ${cell(v.message)} |`,
  );
  return [
    `**Policy ${file}:** ${verdict}, ${policy.advisory} advisory.`,
    "",
    "| Level | Rule | GUID | Resource | Subscriber URL | What to change |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

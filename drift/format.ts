/**
 * The two output formats of `webhook-subscriptions drift`: markdown for a pull-request comment, JSON for
 * programs (the schema is documented in docs/drift.md).
 */
import { formatMarkdown } from "./markdown";
import type { DriftReport } from "./report";

export const FORMATS = ["md", "json"] as const;
export type Format = (typeof FORMATS)[number];

/** The report as printed on stdout, ending in a newline. */
export function formatReport(report: DriftReport, format: Format): string {
  return format === "json" ? `${JSON.stringify(report, null, 2)}\n` : formatMarkdown(report);
}

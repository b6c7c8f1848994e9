/**
 * The review as one HTML page (`--format html`, `--report *.html`), for a person rather than a
 * log: a pipeline keeps it as an artifact, and it must open anywhere, offline, from a file, in a
 * viewer that runs no script. So it is self-contained: inline CSS, the charts as inline SVG, no
 * script, no link, no image to fetch. First the counts (by class, by source), then the findings,
 * the subscriptions the sources claim, the sources' status, the ignore entries to fix, and the notes. Every
 * text is escaped; a secret field reads "secret differs" and nothing else.
 */
import { plural } from "../review/plural";
import { CLASS_TITLES, FINDING_CLASSES, type Finding, type Owner, type Review } from "../review/model";
import { comparedText, sameSource, sourceName } from "./names";
import { escapeMarkup as e } from "./escape";
import { SECRET_DIFFERS, SIDES, valueText } from "./fieldText";

/** The label of the bar (and the cells) for findings no source claims. */
export const UNCLAIMED = "claimed by no source";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
code { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
table.fields td:first-child code { white-space: nowrap; }
td.guid code { overflow-wrap: normal; }
td.message, td.advice { min-width: 11em; }
table.fields { width: auto; } table.fields td, table.fields th { padding: 2px 6px; }
.secret { font-style: italic; }
.tag { font-size: 11px; padding: 0 6px; border-radius: 8px; background: #ddf4ff; margin-left: 4px; }
.status-drift, .status-error { color: #cf222e; } .status-in-sync { color: #1a7f37; }
.charts { display: flex; flex-wrap: wrap; gap: 2rem; }
svg.chart { width: 640px; max-width: 100%; }
svg.chart rect { fill: #0969da; } svg.chart text { font: 12px system-ui, sans-serif; fill: #1f2328; }
.where { color: #59636e; font-size: 12px; overflow-wrap: anywhere; }
`;

/** Geometry of a bar chart: a label line above each bar, the count after it. */
const CHART = { width: 640, row: 40, bar: 14, barWidth: 560 } as const;

/** A horizontal bar chart as inline SVG: one `<rect>` per bar, zero counts included. */
function barChart(title: string, bars: readonly { label: string; count: number }[]): string {
  const max = Math.max(1, ...bars.map((b) => b.count));
  const height = bars.length * CHART.row + 8;
  const rows = bars.map(({ label, count }, i) => {
    const y = i * CHART.row;
    const width = Math.round((count / max) * CHART.barWidth);
    return (
      `<g class="bar" data-label="${e(label)}" data-count="${count}"><title>${e(label)}: ${count}</title>` +
      `<text x="0" y="${y + 14}">${e(label)}</text>` +
      `<rect x="0" y="${y + 20}" width="${width}" height="${CHART.bar}"/>` +
      `<text x="${width + 6}" y="${y + 32}">${count}</text></g>`
    );
  });
  return [
    `<figure><figcaption>${e(title)}</figcaption>`,
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${e(title)}" viewBox="0 0 ${CHART.width} ${height}">`,
    ...rows,
    "</svg></figure>",
  ].join("\n");
}

const ownersOf = (f: Finding): readonly Owner[] => f.owners ?? (f.owner ? [f.owner] : []);
/** Each item on its own line within a cell. */
const lines = (items: readonly string[]) => items.join("<br>");

function charts(review: Review): string {
  const byClass = FINDING_CLASSES.map((cls) => ({ label: CLASS_TITLES[cls], count: review.summary[cls] }));
  // A co-owned finding counts for each source that claims it.
  const bySource = [
    ...review.sources.map(({ source }) => ({
      label: sourceName(source),
      count: review.findings.filter((f) => ownersOf(f).some((o) => sameSource(o.source, source))).length,
    })),
    { label: UNCLAIMED, count: review.findings.filter((f) => ownersOf(f).length === 0).length },
  ];
  return `<div class="charts">\n${barChart("Findings by class", byClass)}\n${barChart("Findings by source", bySource)}\n</div>`;
}

/** The declared, recorded and live values of a finding's fields; a secret field shows "secret differs" alone. */
function fieldsTable(f: Finding): string {
  if (f.fields.length === 0) return "";
  const rows = f.fields.map((field) =>
    field.secret
      ? `<tr><td><code>${e(field.field)}</code></td><td colspan="3" class="secret">${SECRET_DIFFERS}</td></tr>`
      : `<tr><td><code>${e(field.field)}</code></td>${SIDES.map((side) => `<td><code>${e(valueText(field.field, field[side]))}</code></td>`).join("")}</tr>`,
  );
  const head = `<tr><th>field</th>${SIDES.map((side) => `<th>${side}</th>`).join("")}</tr>`;
  return `<table class="fields">${head}${rows.join("")}</table>`;
}

function findingRow(f: Finding): string {
  const owners = ownersOf(f);
  const { file, line } = f.location;
  const cells = [
    `<td class="class">${e(CLASS_TITLES[f.class])}${f.baseline ? `<span class="tag">${e(f.baseline)}</span>` : ""}</td>`,
    `<td class="source">${owners.length ? lines(owners.map((o) => e(sourceName(o.source)))) : UNCLAIMED}</td>`,
    `<td class="address">${lines(owners.map((o) => `<code>${e(o.address)}</code>`))}<div class="where">${e(file)}${line ? `:${line}` : ""}</div></td>`,
    // A break opportunity after each hyphen: every engine may then wrap a GUID there, and only there.
    `<td class="guid"><code>${e(f.guid ?? "").replaceAll("-", "-<wbr>")}</code></td>`,
    `<td class="fields">${fieldsTable(f)}</td>`,
    `<td class="message">${e(f.message)}</td>`,
    `<td class="advice">${e(f.advice ?? "")}</td>`,
  ];
  return `<tr class="finding" data-class="${e(f.class)}" data-fingerprint="${e(f.fingerprint)}">${cells.join("")}</tr>`;
}

/** A table with a header row, or `empty` when there is no row. */
function table(id: string, headers: readonly string[], rows: readonly string[], empty: string): string {
  if (rows.length === 0) return `<p id="${id}">${empty}</p>`;
  const head = `<tr>${headers.map((h) => `<th>${h}</th>`).join("")}</tr>`;
  return `<table id="${id}"><thead>${head}</thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

function findings(review: Review): string {
  const headers = ["Class", "Source", "Address", "GUID", "Fields", "What was found", "What to do"];
  return table("findings", headers, review.findings.map(findingRow), "No findings.");
}

function reviewed(review: Review): string {
  const titles = new Map(review.findings.map((f) => [f.fingerprint, CLASS_TITLES[f.class]]));
  const rows = review.sources.flatMap(({ source, status, compared, subscriptions }) =>
    subscriptions.map((m) => {
      // A fingerprint the review no longer lists was suppressed by an ignore rule.
      const found = [...new Set(m.findings.map((fp) => titles.get(fp) ?? "ignored"))];
      // A source whose drift could not be determined has no subscription in sync.
      const state =
        status === "undetermined"
          ? "unknown"
          : found.length
            ? found.join(", ")
            : status === "reviewed" && compared.length === 0
              ? "claimed"
              : "in sync";
      return `<tr><td>${e(sourceName(source))}</td><td><code>${e(m.address)}</code></td><td><code>${e(m.guid)}</code></td><td>${e(state)}</td></tr>`;
    }),
  );
  return `<details><summary>${plural(rows.length, "subscription")} claimed</summary>\n${table("reviewed", ["Source", "Address", "GUID", "Findings"], rows, "None.")}\n</details>`;
}

function sources(review: Review): string {
  const rows = review.sources.map(
    (s) =>
      `<tr class="source-${e(s.status)}"><td>${e(sourceName(s.source))}</td><td>${e(comparedText(s))}</td>` +
      `<td>${e(s.status)}</td><td>${s.subscriptions.length}</td><td>${e([s.error?.code, s.error?.message, s.reason].filter(Boolean).join(": "))}</td></tr>`,
  );
  return table("sources", ["Source", "Compared with", "Status", "Claimed", "Why"], rows, "No source.");
}

function ignored(review: Review): string {
  const { suppressed, expired, stale } = review.ignored;
  const entry = (what: string) => (i: (typeof expired)[number]) =>
    `<tr><td>${what}</td><td><code>${e(i.match)}</code></td><td>${e(i.reason)}</td><td>${e(i.owner)}</td><td>${e(i.expires ?? "")}</td></tr>`;
  const count = suppressed.reduce((n, s) => n + s.fingerprints.length, 0);
  return [
    `<p>${plural(count, "finding")} suppressed by ${plural(suppressed.length, "rule")}.</p>`,
    table(
      "ignore-entries",
      ["Entry", "Match", "Reason", "Owner", "Expires"],
      [...expired.map(entry("expired: suppresses nothing")), ...stale.map(entry("stale: matched nothing"))],
      "No ignore entry needs attention.",
    ),
  ].join("\n");
}

function header(review: Review): string {
  const baseline = review.baseline
    ? `<p>Against <code>${e(review.baseline.file)}</code>: ${review.baseline.new} new, ${review.baseline.known} known.</p>`
    : "";
  const instances = review.instances.map((i) => `<code>${e(i.baseUrl)}</code> (API ${e(i.apiVersion)})`).join(", ");
  return [
    `<h1>Drift review: <span class="status-${e(review.status)}">${e(review.status)}</span></h1>`,
    `<p>${plural(review.findings.length, "finding")} in ${plural(review.sources.length, "source")}` +
      `${instances ? ` on ${instances}` : ""}; exit code ${review.exitCode}; made ${e(review.generatedAt)} in ${(review.durationMs / 1000).toFixed(1)} s.</p>`,
    baseline,
  ].join("\n");
}

/** The review as one self-contained HTML page: counts as SVG charts, then the findings, sources and notes. */
export function renderHtml(review: Review): string {
  const notes = review.notes.map((n) => `<li>${e(n)}</li>`).join("\n");
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>Drift review: ${e(review.status)}, ${e(review.generatedAt)}</title>`,
    `<style>${STYLE}</style></head>`,
    "<body>",
    header(review),
    `<h2>Counts</h2>\n${charts(review)}`,
    `<h2>Findings</h2>\n${findings(review)}`,
    `<h2>Subscriptions the sources claim</h2>\n${reviewed(review)}`,
    `<h2>Sources</h2>\n${sources(review)}`,
    `<h2>Ignore entries</h2>\n${ignored(review)}`,
    notes ? `<h2>Notes</h2>\n<ul id="notes">\n${notes}\n</ul>` : "",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

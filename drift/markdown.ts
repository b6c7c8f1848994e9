/**
 * The report as markdown for a pull-request comment: one summary line, then a table (what
 * drifted first), then what differs from the program, then the adoption snippets folded away.
 * Secrets never appear: a changed secret reads "secret changed", one that differs from the program
 * "secret differs", an unmanaged header value "set, not shown".
 */
import { webhookName } from "../provider/wire";
import { commandPrefix, type Invocation } from "./invocation";
import { plural } from "./plural";
import { cell, code } from "./markdownText";
import { policySection } from "./policyMarkdown";
import { shellWord } from "./shellWord";
import type {
  DriftReport,
  FieldChange,
  FieldValue,
  ManagedSubscription,
  ProgramDifference,
  UnmanagedSubscription,
} from "./report";

/** GitHub refuses comments over 65,536 characters; stay clear of it. */
export const MAX_COMMENT_CHARS = 60_000;

const STATUS_TEXT = {
  deleted: "deleted out of band",
  changed: "changed out of band",
  unknown: "unknown",
  "in-sync": "in sync",
  unmanaged: "unmanaged",
} as const;

/** The class of a subscription whose live values are not what the program declares. */
export const DIFFERS_FROM_PROGRAM = "differs from the program";

/** A state or live value for a table cell; webhooks get their event name. */
function value(field: string, v: FieldValue | undefined): string {
  if (v === null || v === undefined || v === "") return "*none*";
  if (field === "webhook" && typeof v === "number") return code(`${v} (${webhookName(v) ?? "unknown event"})`);
  return code(String(v));
}

/** The first line: the verdict and the counts. */
export function summaryLine(report: DriftReport): string {
  const s = report.summary;
  const stack = code(report.stack);
  const urls = (report.instances ?? (report.instance ? [report.instance] : [])).flatMap((i) => i.baseUrl ?? []);
  const where = urls.length > 0 ? ` on ${urls.join(" and ")}` : "";
  switch (report.status) {
    case "in-sync":
      return `**No drift in stack ${stack}:** ${s.managed === 1 ? "the managed subscription is" : `all ${plural(s.managed, "managed subscription")} are`} in sync, and no unmanaged subscription exists${where}.`;
    case "drift": {
      const parts = [
        s.deleted ? `${s.deleted} deleted out of band` : "",
        s.changed ? `${s.changed} changed out of band` : "",
        s.unmanaged ? `${s.unmanaged} unmanaged` : "",
        report.coOwned.length
          ? `${report.coOwned.length} co-owned with another stack${hasTerraform(report) ? " or Terraform state" : ""}`
          : "",
        s.differsFromProgram
          ? `${s.differsFromProgram} ${s.differsFromProgram === 1 ? DIFFERS_FROM_PROGRAM : "differ from the program"}`
          : "",
      ].filter(Boolean);
      return `**Drift in stack ${stack}:** ${parts.join(", ")}; ${s.inSync} of ${plural(s.managed, "managed subscription")} in sync${where}.`;
    }
    case "undetermined":
      return `**Drift cannot be determined for stack ${stack}:** ${report.reason ?? "the review could not read the live subscriptions."}`;
    case "error":
      return `**Drift review of stack ${stack} failed:** ${report.error?.message ?? "unknown error."}`;
  }
}

/** A subscription's name, and under it the line that declares it where the review knows one. */
function nameCell(name: string, urn: string, options: MarkdownOptions): string {
  const at = options.declaredAt?.get(urn);
  return at ? `${code(name)}<br>${code(at)}` : code(name);
}

function changeRow(m: ManagedSubscription, c: FieldChange, options: MarkdownOptions): string {
  const [state, live] = c.secret
    ? ["(secret)", "**secret changed**"]
    : [value(c.field, c.state), value(c.field, c.live)];
  return `| ${STATUS_TEXT.changed} | ${nameCell(m.name, m.urn, options)} | ${code(m.guid)} | ${code(c.field)} | ${state} | ${live} |`;
}

function managedRows(m: ManagedSubscription, options: MarkdownOptions): string[] {
  if (m.status === "changed") return m.changes.map((c) => changeRow(m, c, options));
  const [state, live] = m.status === "deleted" ? ["exists", "**gone**"] : ["", ""];
  return [
    `| ${STATUS_TEXT[m.status]} | ${nameCell(m.name, m.urn, options)} | ${code(m.guid)} |  | ${state} | ${live} |`,
  ];
}

/** The live fields of an unmanaged subscription, in one cell. */
function describeUnmanaged(u: UnmanagedSubscription): string {
  const parts = [
    `webhook ${value("webhook", u.webhook)}`,
    `filterObjectType ${code(String(u.filterObjectType))}`,
    u.filterObjectGuid ? `filterObjectGuid ${code(u.filterObjectGuid)}` : "",
    `subscriberUrl ${code(u.subscriberUrl)}`,
    u.customHeader
      ? `customHeader ${code(u.customHeader)}${u.hasCustomHeaderValue ? " (value set, not shown)" : ""}`
      : "",
  ];
  return parts.filter(Boolean).join(", ");
}

function unmanagedRow(u: UnmanagedSubscription, severalInstances: boolean): string {
  const where = severalInstances && u.baseUrl ? `on ${code(u.baseUrl)}: ` : "";
  const orphan = u.pendingCreate
    ? `pending create of ${code(u.pendingCreate.slice(u.pendingCreate.lastIndexOf("::") + 2))}`
    : "not in state";
  return `| ${STATUS_TEXT.unmanaged} |  | ${code(u.guid)} |  | ${orphan} | ${where}${describeUnmanaged(u)} |`;
}

/** What the live instance was compared with, in one sentence. */
export function comparisonSentence(report: Pick<DriftReport, "comparison">): string {
  return report.comparison === "state"
    ? "Compared the live subscriptions with the stack's state only (`--state-only`): a `pulumi refresh` copies live values into the state, so this review does not see them; without `--state-only` it compares with the program too."
    : "Compared the live subscriptions with the stack's state and with its program (a preview with a refresh, nothing applied).";
}

/** One row per differing field: the program's step, the declared value and the live one. */
function programRows(d: ProgramDifference, options: MarkdownOptions): string[] {
  // One the program no longer declares is not shown at the line the state last saw.
  const first = `| ${d.action === "delete" ? code(d.name) : nameCell(d.name, d.urn, options)} | ${d.guid ? code(d.guid) : ""} |`;
  if (d.action === "create") return [`${first} ${d.action} |  | declared | **not live** |`];
  if (d.action === "delete") return [`${first} ${d.action} |  | **not declared** | live |`];
  return d.changes.map((c) =>
    c.secret
      ? `${first} ${d.action} | ${code(c.field)} | (secret) | **secret differs** |`
      : `${first} ${d.action} | ${code(c.field)} | ${value(c.field, c.declared)} | ${value(c.field, c.live)} |`,
  );
}

/** The subscriptions whose live values are not what the program declares, and what `pulumi up` would do. */
function programBlock(report: DriftReport, options: MarkdownOptions): string {
  if (report.differsFromProgram.length === 0) return "";
  return [
    `### ${DIFFERS_FROM_PROGRAM.charAt(0).toUpperCase()}${DIFFERS_FROM_PROGRAM.slice(1)} (${report.differsFromProgram.length})`,
    "",
    "What the stack's program declares is not what is live; `pulumi up` would do the step shown.",
    "",
    "| Subscription | GUID | `pulumi up` would | Field | Declared | Live |",
    "|---|---|---|---|---|---|",
    ...report.differsFromProgram.flatMap((d) => programRows(d, options)),
  ].join("\n");
}

/** Whether Terraform/OpenTofu sources (state files or directories) counted as owners too. */
function hasTerraform(report: DriftReport): boolean {
  return (report.terraformStates?.length ?? 0) + (report.terraformDirectories?.length ?? 0) > 0;
}

/** What the review left out on purpose, and whose subscriptions counted as managed. */
function scope(report: DriftReport): string {
  const lines = [
    comparisonSentence(report),
    report.alsoManagedBy?.length
      ? `Subscriptions of stack ${report.alsoManagedBy.map(code).join(", ")} count as managed.`
      : "",
    report.terraformStates?.length
      ? `Subscriptions of Terraform state ${report.terraformStates.map(code).join(", ")} count as managed.`
      : "",
    report.terraformDirectories?.length
      ? `Subscriptions of Terraform directory ${report.terraformDirectories.map(code).join(", ")} count as managed.`
      : "",
    report.ignored
      ? `Ignored (${plural(report.ignored.guids.length, "subscription")}): ${report.ignored.rules.map(code).join(", ")}.`
      : "",
  ];
  return lines.filter(Boolean).join(" ");
}

function table(rows: readonly string[]): string {
  return ["| Status | Subscription | GUID | Field | In state | Live |", "|---|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}

/** The TypeScript statements, with the imports they need (and no other), for the program. */
function typescriptBlock(unmanaged: readonly UnmanagedSubscription[]): string[] {
  // `pulumi` only for a secret header value read from the stack's config.
  const usesPulumi = unmanaged.some((u) => u.snippet.includes("pulumi."));
  const body = [
    ...(usesPulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import { WebhookSubscription, Webhook } from "pulumi-webhook-subscriptions";',
    ...(unmanaged.some((u) => u.provider)
      ? ["// `{ provider: … }` names the Provider of that instance, as declared in your program."]
      : []),
    "",
    ...unmanaged.map((u) => `${u.snippet}\n`),
  ].join("\n");
  return ["```ts", body.trimEnd(), "```"];
}

/** The `pulumi import` commands, for stacks on the native plugin. */
function importBlock(unmanaged: readonly UnmanagedSubscription[]): string[] {
  return [
    "Run in the program's directory; `pulumi import` records each in the stack's state and prints the code to add to the program:",
    "",
    "```sh",
    unmanaged.map((u) => u.snippet).join("\n\n"),
    "```",
  ];
}

/** Subscriptions another stack records too: who holds each, and what to do. Never folded away. */
function coOwnedBlock(report: DriftReport): string {
  if (report.coOwned.length === 0) return "";
  return [
    `### Co-owned subscriptions (${report.coOwned.length})`,
    "",
    `A destroy by any of these ${hasTerraform(report) ? "owners (stacks, Terraform states)" : "stacks"} unsubscribes the subscription for all of them.`,
    "",
    "| GUID | Recorded by | What to do |",
    "|---|---|---|",
    ...report.coOwned.map(
      (c) =>
        `| ${code(c.guid)} | ${c.owners.map((o) => `${o.tool === "terraform" ? "Terraform state" : "stack"} ${code(o.stack)}: ${code(o.name)}`).join("<br>")} | ${cell(c.advice)} |`,
    ),
  ].join("\n");
}

/** How to finish a killed `up`: the commands, in order; the orphans each takes over are marked in the table. */
function recoveryBlock(report: DriftReport): string {
  if (!report.recovery) return "";
  const orphans = report.unmanaged.filter((u) => u.pendingCreate).length;
  return [
    `**A killed \`pulumi up\` left pending creates in the state**${orphans > 0 ? `, and ${plural(orphans, "unmanaged subscription")} it created but never recorded` : ""}. ` +
      "Finish it with these commands, in order, in the program's directory: clear the pending creates" +
      (orphans > 0 ? ", let each resource take over its own orphan, and only those" : "") +
      ", create the rest (docs/recovery.md):",
    "",
    "```sh",
    ...report.recovery,
    "```",
  ].join("\n");
}

function snippets(report: DriftReport): string {
  if (report.unmanaged.length === 0) return "";
  const typescript = report.unmanaged.filter((u) => u.snippetKind !== "pulumi-import");
  const imports = report.unmanaged.filter((u) => u.snippetKind === "pulumi-import");
  return [
    `<details><summary>Adopt the ${plural(report.unmanaged.length, "unmanaged subscription")} into the program</summary>`,
    "",
    ...(typescript.length > 0 ? typescriptBlock(typescript) : []),
    ...(typescript.length > 0 && imports.length > 0 ? [""] : []),
    ...(imports.length > 0 ? importBlock(imports) : []),
    "</details>",
  ].join("\n");
}

/** What the review could not see, one quoted line each (capitalised: a note starts a sentence). */
function notesBlock(report: DriftReport): string {
  return report.notes.map((note) => `> **Note:** ${cell(note.charAt(0).toUpperCase() + note.slice(1))}`).join("\n");
}

/** How the report is printed. */
export interface MarkdownOptions {
  /** How the commands it prints run the tool (drift/invocation.ts); the npm package's bin by default. */
  readonly invocation?: Invocation;
  /** The review's `--cwd`, as given: the command that runs it again repeats it. */
  readonly programDir?: string;
  /**
   * The review's flags as the command line gave them (all but `--format` and `--report`): the
   * command that runs it again is made of them, since a report does not hold every flag
   * (`--ignore-file`, `--baseline`, `--terraform-cli`).
   */
  readonly reviewFlags?: readonly string[];
  /**
   * Where the review found each subscription declared, `file:line` by URN (its findings'
   * locations, drift/sources/pulumiStack.ts): shown under the subscription's name.
   */
  readonly declaredAt?: ReadonlyMap<string, string>;
  /** The command that runs the review again, when the drift command would not (cli/command.ts `rerun`). */
  readonly rerun?: string;
}

/** The command that runs the drift review with `flags`, the way this one ran (drift/invocation.ts). */
export function reviewCommandLine(invocation: Invocation | undefined, flags: readonly string[]): string {
  return [commandPrefix(invocation), "drift", ...flags.map(shellWord)].join(" ");
}

/** The command that runs this review again: the host's `rerun`, else the drift command. */
function rerunCommand(report: DriftReport, options: MarkdownOptions): string {
  return options.rerun ?? driftCommandLine(report, options);
}

/**
 * The drift command of this review with `extra` flags, its stacks and ignore rules: the package's
 * bin, which exists wherever the package is installed (this repository's `npm run drift` does
 * not), or the single executable it was run from.
 */
function driftCommandLine(report: DriftReport, options: MarkdownOptions, ...extra: readonly string[]): string {
  const flags = options.reviewFlags ?? [
    ...[report.stack, ...(report.alsoManagedBy ?? [])].flatMap((stack) => ["--stack", stack]),
    ...(options.programDir !== undefined ? ["--cwd", options.programDir] : []),
    ...(report.ignored?.rules ?? []).flatMap((rule) => ["--ignore", rule]),
    ...(report.terraformDirectories ?? []).flatMap((dir) => ["--terraform", dir]),
    ...(report.terraformStates ?? []).flatMap((file) => ["--terraform-state", file]),
    ...(report.policy ? ["--policy", report.policy.file] : []),
    ...(report.comparison === "state" ? ["--state-only"] : []),
  ];
  return reviewCommandLine(options.invocation, [...flags, ...extra]);
}

function footer(report: DriftReport, options: MarkdownOptions): string {
  const facts = [
    // "state in …": the backend may read "the backend the Pulumi CLI is logged in to".
    report.backend ? `state in ${report.backend}` : "",
    report.instance ? `api-version ${report.instance.apiVersion}` : "",
    `reviewed in ${(report.durationMs / 1000).toFixed(1)}s`,
  ].filter(Boolean);
  return `<sub>${cell(facts.join(" · "))} · ${code(rerunCommand(report, options))}</sub>`;
}

/** The whole comment; long reports fold the in-sync rows, then drop the snippets, then cut rows, to fit in one comment. */
export function formatMarkdown(report: DriftReport, options: MarkdownOptions = {}): string {
  const drift = [
    ...report.managed.filter((m) => m.status !== "in-sync").flatMap((m) => managedRows(m, options)),
    ...report.unmanaged.map((u) => unmanagedRow(u, (report.instances?.length ?? 1) > 1)),
  ];
  const inSync = report.managed.filter((m) => m.status === "in-sync");
  const folded =
    inSync.length > 0 ? [`| ${STATUS_TEXT["in-sync"]} | ${plural(inSync.length, "subscription")} |  |  |  |  |`] : [];
  // The whole review is the drift command's JSON; a review that only `rerun` runs again (npm start's) has none to offer.
  const tooLong =
    options.rerun === undefined
      ? `*The report is too long for one comment: run ${code(driftCommandLine(report, options, "--format", "json"))} for all of it.*`
      : "*The report is too long for one comment.*";

  const render = (rows: readonly string[], withSnippets: boolean, note = "") =>
    [
      summaryLine(report),
      rows.length > 0 ? table(rows) : "",
      scope(report),
      programBlock(report, options),
      coOwnedBlock(report),
      recoveryBlock(report),
      policySection(report),
      note,
      withSnippets ? snippets(report) : "",
      notesBlock(report),
      footer(report, options),
    ]
      .filter(Boolean)
      .join("\n\n")
      .concat("\n");

  const attempts = [
    () => render([...drift, ...inSync.flatMap((m) => managedRows(m, options))], true),
    () => render([...drift, ...folded], true),
    () => render([...drift, ...folded], false, tooLong),
  ];
  for (const attempt of attempts) {
    const text = attempt();
    if (text.length <= MAX_COMMENT_CHARS) return text;
  }
  // Even the drift rows alone are too many: keep as many as fit.
  const budget = MAX_COMMENT_CHARS - render([], false, tooLong).length - 200;
  let used = 0;
  const kept = drift.filter((row) => (used += row.length + 1) <= budget);
  return render([...kept, `| … | ${drift.length - kept.length} more rows |  |  |  |  |`], false, tooLong);
}

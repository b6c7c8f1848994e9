/**
 * The markdown report's table: a row per field of each finding (what the program or configuration
 * declares, what the state records, what is live), then the subscriptions in sync, and those of a
 * source whose drift could not be determined. Policy findings have a section of their own
 * (policyMarkdown.ts). A secret field reads "secret differs" and nothing else; an unmanaged
 * subscription's header value, "set, not shown".
 */
import { snakeCase } from "../../provider/model";
import { plural } from "../review/plural";
import { CLASS_TITLES, type FieldFinding, type Finding, type LiveSubscription, type Review } from "../review/model";
import { valueText } from "./fieldText";
import { cell, code } from "./markdownText";
import { claimsOnly, ownerName } from "./names";

/** The table's head; every row has its seven cells. */
export const FINDINGS_HEAD = [
  "| Finding | Subscription | GUID | Field | Declared | In state | Live |",
  "|---|---|---|---|---|---|---|",
];

/** The table's rows, in parts, so that the report can fold or cut them to fit one comment. */
export interface FindingRows {
  /** A row per field of each finding (one for a finding without fields), policy findings left out. */
  readonly drift: readonly string[];
  /** A row per subscription in sync; `folded` is the one row that stands for them all. */
  readonly inSync: readonly string[];
  readonly folded: readonly string[];
  /** A row per subscription of a source whose drift could not be determined. */
  readonly unknown: readonly string[];
}

const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;

/** A declared, recorded or live value: empty when that side was not compared, `*none*` for no value. */
function valueCell(field: string, value: FieldFinding["live"]): string {
  if (value === undefined) return "";
  return value === null || value === "" ? "*none*" : code(valueText(field, value));
}

/**
 * The live fields of an unmanaged subscription or a pending create's orphan, in one cell, named as
 * the review's users write them: HCL's words when every source is Terraform's.
 */
function describeLive(s: LiveSubscription, hcl: boolean): string {
  const name = (field: string) => (hcl ? snakeCase(field) : field);
  return [
    `${name("webhook")} ${code(`${s.webhook} (${s.webhookName ?? "unknown event"})`)}`,
    `${name("filterObjectType")} ${code(String(s.filterObjectType))}`,
    s.filterObjectGuid ? `${name("filterObjectGuid")} ${code(s.filterObjectGuid)}` : "",
    `${name("subscriberUrl")} ${code(s.subscriberUrl)}`,
    s.customHeader
      ? `${name("customHeader")} ${code(s.customHeader)}${s.hasCustomHeaderValue ? " (value set, not shown)" : ""}`
      : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** How the rows name the findings' subscriptions: with the source when there are several, the instance when there are several. */
export class Subjects {
  private readonly severalSources: boolean;
  private readonly severalInstances: boolean;
  /** Every source is Terraform's: fields are named as HCL writes them. */
  readonly terraformOnly: boolean;

  constructor(private readonly review: Review) {
    this.severalSources = review.sources.length > 1;
    this.terraformOnly = review.sources.every((s) => s.source.kind !== "pulumi-stack");
    this.severalInstances = review.instances.length > 1;
  }

  /** `name`, after its source's name when the review has several sources. */
  named(source: string, name: string): string {
    return this.severalSources ? `${code(source)} ${code(name)}` : code(name);
  }

  /** The subscription a finding is about, and under it the line that declares it where known. */
  of(f: Finding): string {
    const owners = f.owners ?? (f.owner ? [f.owner] : []);
    const who =
      f.class === "co-owned"
        ? owners.map((o) => `${code(o.source.name)} ${code(ownerName(this.review, o))}`).join("<br>")
        : f.owner
          ? this.named(f.owner.source.name, ownerName(this.review, f.owner))
          : this.severalInstances && f.baseUrl
            ? `on ${code(f.baseUrl)}`
            : "";
    const { file, line } = f.location;
    return line !== undefined && who ? `${who}<br>${code(`${file}:${line}`)}` : who;
  }
}

/** A secret field's row: "(secret)" on the side it was compared with, "secret differs" live. */
function secretSides(f: Finding): [string, string, string] {
  const declared = f.class === "differs-from-program" || f.class === "differs-from-configuration";
  return [declared ? "(secret)" : "", declared ? "" : "(secret)", "**secret differs**"];
}

/** The declared, in-state and live cells of a finding without fields. */
function wholeSides(f: Finding, hcl: boolean): [string, string, string] {
  const live = f.subscription ? describeLive(f.subscription, hcl) : "";
  if (f.step === "create") return ["declared", "", "**not live**"];
  if (f.step === "delete") return ["**not declared**", "", "live"];
  if (f.class === "deleted") return ["", "exists", "**gone**"];
  if (f.class === "unmanaged") return ["", "not in state", live];
  if (f.class === "pending-create") return ["", "pending create", live];
  return ["", "", live];
}

function findingRows(f: Finding, subjects: Subjects): string[] {
  const step = f.step ? `: \`pulumi up\` would ${f.step}` : "";
  const head = [
    `${CLASS_TITLES[f.class]}${step}${f.baseline === "new" ? " **new**" : ""}`,
    subjects.of(f),
    f.guid ? code(f.guid) : "",
  ];
  if (f.fields.length === 0) return [row([...head, "", ...wholeSides(f, subjects.terraformOnly)])];
  return f.fields.map((x) =>
    row([
      ...head,
      code(x.field),
      ...(x.secret
        ? secretSides(f)
        : [valueCell(x.field, x.declared), valueCell(x.field, x.recorded), valueCell(x.field, x.live)]),
    ]),
  );
}

/** The report's table rows; see FindingRows. */
export function findingTableRows(review: Review): FindingRows {
  const subjects = new Subjects(review);
  const claimedRow = (status: string) => (source: string, name: string, guid: string) =>
    row([status, subjects.named(source, name), code(guid), "", "", "", ""]);
  const inSync = review.sources
    .filter((s) => s.status === "reviewed" && !claimsOnly(s))
    .flatMap((s) => s.subscriptions.filter((m) => m.findings.length === 0).map((m) => ({ s, m })));
  const claimed = review.sources
    .filter(claimsOnly)
    .flatMap((s) =>
      s.subscriptions
        .filter((m) => m.findings.length === 0)
        .map((m) => claimedRow("claimed")(s.source.name, m.name, m.guid)),
    );
  const unknown = review.sources
    .filter((s) => s.status === "undetermined")
    .flatMap((s) => s.subscriptions.map((m) => claimedRow("unknown")(s.source.name, m.name, m.guid)));
  return {
    drift: review.findings.filter((f) => f.class !== "policy").flatMap((f) => findingRows(f, subjects)),
    inSync: inSync.map(({ s, m }) => claimedRow("in sync")(s.source.name, m.name, m.guid)),
    folded:
      inSync.length > 0 ? [row(["in sync", cell(plural(inSync.length, "subscription")), "", "", "", "", ""])] : [],
    unknown: [...unknown, ...claimed],
  };
}
